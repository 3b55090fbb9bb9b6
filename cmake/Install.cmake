# install(): the library, its public headers (include/ssdtlm/) and the CMake package
# ssdtlm::ssdtlm, so a platform's build finds it with find_package(ssdtlm). The layers
# under it are static libraries of their own, exported with it; their headers stay private.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SSDTLM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ssdtlm)
install(TARGETS ssd_config ssd_firmware ssd_model ssd_report ssdtlm_ip EXPORT ssdtlmTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/ssdtlm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ssdtlmTargets NAMESPACE ssdtlm:: DESTINATION ${SSDTLM_CMAKE_DIR})
configure_package_config_file(cmake/ssdtlmConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/ssdtlmConfig.cmake
                              INSTALL_DESTINATION ${SSDTLM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ssdtlmConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ssdtlmConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/ssdtlmConfigVersion.cmake
        DESTINATION ${SSDTLM_CMAKE_DIR})
# The shipped drives, for a platform to start from.
install(DIRECTORY configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdtlm/configs)
