"""Hardware cost report of the RTL blocks (scripts/hw_report)."""
