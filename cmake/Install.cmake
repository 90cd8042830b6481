include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS ridge_library ridge EXPORT ridgeTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/ridge DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ridgeTargets NAMESPACE ridge:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)

configure_package_config_file(cmake/ridgeConfig.cmake.in
                              "${PROJECT_BINARY_DIR}/ridgeConfig.cmake"
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ridgeConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/ridgeConfig.cmake" "${PROJECT_BINARY_DIR}/ridgeConfigVersion.cmake"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)
