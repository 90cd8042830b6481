include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The library is exported as ridge::ridge; the CLI is installed but not exported (its name
# would clash with the library's imported target).
install(TARGETS ridge_library EXPORT ridgeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS ridge RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/ridge DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ridgeTargets NAMESPACE ridge:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)

configure_package_config_file(cmake/ridgeConfig.cmake.in
                              "${PROJECT_BINARY_DIR}/ridgeConfig.cmake"
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ridgeConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/ridgeConfig.cmake" "${PROJECT_BINARY_DIR}/ridgeConfigVersion.cmake"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)
