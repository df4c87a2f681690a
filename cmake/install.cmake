# Install rules: headers, the libraries (exported as shardkit::<layer>,
# shardkit::c and the umbrella shardkit::shardkit), shardkit-opt,
# shardkitConfig.cmake with its version file, and shardkit.pc.
#   cmake --install build --prefix P
include(CMakePackageConfigHelpers)

set(SHARDKIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/shardkit)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/shardkit
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

set(shardkit_installed_targets shardkit_core ${SHARDKIT_LAYERS} shardkit_c
    shardkit_shardkit)
if(TARGET shardkit_opt)
  list(APPEND shardkit_installed_targets shardkit_opt)
endif()
install(TARGETS ${shardkit_installed_targets}
        EXPORT shardkitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT shardkitTargets
        NAMESPACE shardkit::
        FILE shardkitTargets.cmake
        DESTINATION ${SHARDKIT_CMAKE_DIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/shardkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/shardkitConfig.cmake
  INSTALL_DESTINATION ${SHARDKIT_CMAKE_DIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/shardkitConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/shardkitConfig.cmake
              ${PROJECT_BINARY_DIR}/shardkitConfigVersion.cmake
        DESTINATION ${SHARDKIT_CMAKE_DIR})

# shardkit.pc: the C++ libraries highest layer first, as a static link needs
# them; the prefix is found from the file's own place, so the install can be
# moved (cmake --install --prefix P).
set(SHARDKIT_PC_PREFIX "\${pcfiledir}")
string(REPLACE "/" ";" pc_dir_parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
foreach(part IN LISTS pc_dir_parts)
  string(APPEND SHARDKIT_PC_PREFIX "/..")
endforeach()
set(SHARDKIT_PC_LIBS "")
foreach(layer IN LISTS SHARDKIT_LAYERS)
  string(PREPEND SHARDKIT_PC_LIBS "-l${layer} ")
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/shardkit.pc.in
               ${PROJECT_BINARY_DIR}/shardkit.pc @ONLY)
# The C API alone: `pkg-config --libs shardkit_c` is -lshardkit_c.
configure_file(${CMAKE_CURRENT_LIST_DIR}/shardkit_c.pc.in
               ${PROJECT_BINARY_DIR}/shardkit_c.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/shardkit.pc ${PROJECT_BINARY_DIR}/shardkit_c.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
