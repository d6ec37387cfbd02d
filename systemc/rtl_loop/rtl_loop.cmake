# RTL in the loop (systemc/rtl_loop/): the block source sim/ wires in and the generated table of
# Verilated parameter sets. Included by rtl/CMakeLists.txt, which adds the Verilated models of
# the sets it lists (verilate() must run in the directory that declares the target), or, when
# CCNET_BUILD_RTL is off, by the top level with an empty table.
add_library(ccnet_rtl_loop STATIC ${CMAKE_CURRENT_LIST_DIR}/source.cpp ${CMAKE_BINARY_DIR}/rtl_loop/rtl_loop_sets.cpp)
target_include_directories(ccnet_rtl_loop PUBLIC ${PROJECT_SOURCE_DIR}/systemc)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/source.cpp PROPERTIES COMPILE_OPTIONS "${CCNET_WARNINGS}")
target_link_libraries(ccnet_rtl_loop PUBLIC ccnet_blocks PkgConfig::SYSTEMC yaml-cpp)
