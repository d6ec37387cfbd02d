"""`python3 -m ccnet_runner task PLAN INDEX`: one Slurm array task (written into the job script
by the slurm backend; not a user command)."""
import sys

from .slurm import run_task

if len(sys.argv) != 4 or sys.argv[1] != "task" or not sys.argv[3].isdigit():
    sys.exit("usage: python3 -m ccnet_runner task PLAN.json INDEX   (run by Slurm array tasks)")
sys.exit(run_task(sys.argv[2], int(sys.argv[3])))
