# Installs the build BUILD_DIR into a fresh PREFIX and checks that the
# headers, libraries, CMake package files and shardkit.pc are there.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR}
                        --prefix ${PREFIX}
                OUTPUT_QUIET RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
foreach(pattern IN ITEMS include/shardkit/version.h
                         include/shardkit/c/shardkit.h
                         include/shardkit/passes/pipeline.h
                         */libshardkit_passes.*
                         */libshardkit_c.so
                         */cmake/shardkit/shardkitConfig.cmake
                         */cmake/shardkit/shardkitConfigVersion.cmake
                         */cmake/shardkit/shardkitTargets.cmake
                         */pkgconfig/shardkit.pc
                         bin/shardkit-opt)
  file(GLOB_RECURSE found ${PREFIX}/${pattern})
  file(GLOB found_here ${PREFIX}/${pattern})
  if(NOT found AND NOT found_here)
    message(FATAL_ERROR "the install lacks ${pattern}")
  endif()
endforeach()
message(STATUS "installed into ${PREFIX}")
