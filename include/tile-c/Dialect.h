/*===- tile-c/Dialect.h - C API: the tile dialect and its types ---*- C -*-===*\
|*                                                                            *|
|* Registers the tile dialect with an MLIR context through the upstream MLIR  *|
|* C API (mlir-c/IR.h), and builds and inspects `!tile.block` and             *|
|* `!tile.ptr` types. libTileCAPI.so carries the upstream C API functions     *|
|* (mlirContextCreate, ...) as well, since Debian's libMLIR.so does not.      *|
|*                                                                            *|
|* Every function accepts null and wrong-kind handles: builders return a null *|
|* type, accessors a null type or attribute, or -1; none aborts.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_DIALECT_H
#define TILE_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__tile__(): register with mlirDialectHandleInsertDialect
 * or load with mlirDialectHandleLoadDialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

/*===----------------------------------------------------------------------===*
 * !tile.block<d0 x d1 x ... x T>
 *===----------------------------------------------------------------------===*/

/** Whether `type` is a `!tile.block`. */
MLIR_CAPI_EXPORTED bool tileTypeIsABlock(MlirType type);

/** A block of `rank` extents `shape` (which holds `rank` values) of
 *  `elementType`, without an encoding. Invalid arguments (rank below 1, a
 *  null `shape`, an extent below 1, more than 2^31 elements, a null element
 *  type or one that is not a tile scalar or pointer) give a null type
 *  (mlirTypeIsNull) and emit a diagnostic to the context's handlers at an
 *  unknown location. A null context gives a null type. */
MLIR_CAPI_EXPORTED MlirType tileBlockTypeGet(MlirContext ctx, intptr_t rank,
                                             const int64_t *shape,
                                             MlirType elementType);

/** As tileBlockTypeGet, emitting any diagnostic at `loc`. */
MLIR_CAPI_EXPORTED MlirType tileBlockTypeGetChecked(MlirLocation loc,
                                                    intptr_t rank,
                                                    const int64_t *shape,
                                                    MlirType elementType);

/** The rank of a block type; -1 for any other type. */
MLIR_CAPI_EXPORTED intptr_t tileBlockTypeGetRank(MlirType type);

/** Extent `pos` (0 <= pos < rank) of a block type; -1 for another type or
 *  a `pos` out of range. */
MLIR_CAPI_EXPORTED int64_t tileBlockTypeGetDimSize(MlirType type, intptr_t pos);

/** The element type of a block type; a null type for any other type. */
MLIR_CAPI_EXPORTED MlirType tileBlockTypeGetElementType(MlirType type);

/** The layout encoding (`#tile.blocked<...>`) of a block type, or a null
 *  attribute before layout assignment and for any other type. */
MLIR_CAPI_EXPORTED MlirAttribute tileBlockTypeGetEncoding(MlirType type);

/*===----------------------------------------------------------------------===*
 * !tile.ptr<T>
 *===----------------------------------------------------------------------===*/

/** Whether `type` is a `!tile.ptr`. */
MLIR_CAPI_EXPORTED bool tileTypeIsAPtr(MlirType type);

/** A pointer to `pointeeType`, which must be a tile scalar type; otherwise a
 *  null type and a diagnostic at an unknown location (no diagnostic for a
 *  null pointee: it has no context). */
MLIR_CAPI_EXPORTED MlirType tilePtrTypeGet(MlirType pointeeType);

/** As tilePtrTypeGet, emitting any diagnostic at `loc`. */
MLIR_CAPI_EXPORTED MlirType tilePtrTypeGetChecked(MlirLocation loc,
                                                  MlirType pointeeType);

/** The pointee type of a pointer type; a null type for any other type. */
MLIR_CAPI_EXPORTED MlirType tilePtrTypeGetPointeeType(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_DIALECT_H */
