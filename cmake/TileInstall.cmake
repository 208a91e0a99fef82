# Install rules and the CMake package: after
#   cmake --install build --prefix P
# a downstream project finds us with
#   find_package(Tile CONFIG REQUIRED PATHS P)   # or CMAKE_PREFIX_PATH=P
# and links Tile::TileDialect, Tile::TileTransforms, Tile::TileToGPU,
# Tile::TileCompile, Tile::TileRegistration or Tile::TileCAPI.
# docs/embedding.md describes the package from the consumer's side.

include(CMakePackageConfigHelpers)

# Headers: ours, the generated .inc files beside them and the .td files, so
# that downstream ODS can `include "tile/Dialect/Tile/IR/TileTypes.td"`.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tile
                  ${PROJECT_SOURCE_DIR}/include/tile-c
  DESTINATION ${TILE_INSTALL_INCLUDE_DIR}
  COMPONENT tile-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/tile
  DESTINATION ${TILE_INSTALL_INCLUDE_DIR}
  COMPONENT tile-headers
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

set(TILE_EXPORTED_LIBRARIES
  TileDialect TileAnalysis TileTransforms TileToGPU TileCompile
  TileRegistration TileCAPI)
install(TARGETS ${TILE_EXPORTED_LIBRARIES} TilePlugin tile-opt tile-translate
  EXPORT TileTargets
  ARCHIVE DESTINATION ${TILE_INSTALL_LIB_DIR}
  LIBRARY DESTINATION ${TILE_INSTALL_LIB_DIR}
  RUNTIME DESTINATION ${TILE_INSTALL_BIN_DIR})
install(EXPORT TileTargets
  NAMESPACE Tile::
  DESTINATION ${TILE_INSTALL_CMAKE_DIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/TileConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/tile/TileConfig.cmake
  INSTALL_DESTINATION ${TILE_INSTALL_CMAKE_DIR}
  PATH_VARS TILE_INSTALL_INCLUDE_DIR TILE_INSTALL_BIN_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/tile/TileConfigVersion.cmake
  VERSION ${TILE_VERSION}
  # Before 1.0 a minor release may change the C++ API.
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/tile/TileConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/tile/TileConfigVersion.cmake
  DESTINATION ${TILE_INSTALL_CMAKE_DIR})
