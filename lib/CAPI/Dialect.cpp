//===- Dialect.cpp - C API: the tile dialect and its types ----------------===//

#include "tile-c/Dialect.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tile;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

/// C callers cannot catch an assertion, so every builder goes through the
/// types' verifiers and reports a bad argument as a diagnostic and a null
/// type.
static MlirType getCheckedBlockType(Location loc, intptr_t rank,
                                    const int64_t *shape, Type elementType) {
  if (!elementType) {
    emitError(loc) << "a block needs an element type";
    return wrap(Type());
  }
  ArrayRef<int64_t> extents(shape, rank > 0 && shape ? rank : 0);
  return wrap(BlockType::getChecked([&] { return emitError(loc); },
                                    loc.getContext(), extents, elementType,
                                    Attribute()));
}

bool tileTypeIsABlock(MlirType type) { return isa<BlockType>(unwrap(type)); }

MlirType tileBlockTypeGet(MlirContext ctx, intptr_t rank, const int64_t *shape,
                          MlirType elementType) {
  return getCheckedBlockType(UnknownLoc::get(unwrap(ctx)), rank, shape,
                             unwrap(elementType));
}

MlirType tileBlockTypeGetChecked(MlirLocation loc, intptr_t rank,
                                 const int64_t *shape, MlirType elementType) {
  return getCheckedBlockType(unwrap(loc), rank, shape, unwrap(elementType));
}

intptr_t tileBlockTypeGetRank(MlirType type) {
  return cast<BlockType>(unwrap(type)).getShape().size();
}

int64_t tileBlockTypeGetDimSize(MlirType type, intptr_t pos) {
  return cast<BlockType>(unwrap(type)).getShape()[pos];
}

MlirType tileBlockTypeGetElementType(MlirType type) {
  return wrap(cast<BlockType>(unwrap(type)).getElementType());
}

MlirAttribute tileBlockTypeGetEncoding(MlirType type) {
  return wrap(cast<BlockType>(unwrap(type)).getEncoding());
}

bool tileTypeIsAPtr(MlirType type) { return isa<PtrType>(unwrap(type)); }

static MlirType getCheckedPtrType(Location loc, Type pointee) {
  if (!pointee) {
    emitError(loc) << "a pointer needs a pointee type";
    return wrap(Type());
  }
  return wrap(PtrType::getChecked([&] { return emitError(loc); },
                                  loc.getContext(), pointee));
}

MlirType tilePtrTypeGet(MlirType pointeeType) {
  Type pointee = unwrap(pointeeType);
  return getCheckedPtrType(UnknownLoc::get(pointee.getContext()), pointee);
}

MlirType tilePtrTypeGetChecked(MlirLocation loc, MlirType pointeeType) {
  return getCheckedPtrType(unwrap(loc), unwrap(pointeeType));
}

MlirType tilePtrTypeGetPointeeType(MlirType type) {
  return wrap(cast<PtrType>(unwrap(type)).getPointeeType());
}
