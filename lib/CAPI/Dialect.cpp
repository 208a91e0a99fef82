//===- Dialect.cpp - C API: the tile dialect and its types ----------------===//
//
// C callers cannot catch an assertion and get no error from a crash, so
// every entry point accepts null and wrong-kind handles: builders report a
// bad argument as a diagnostic (where there is a context) and a null type,
// and accessors return a null type, a null attribute or -1.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Dialect.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tile;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

/// The block type `type` holds, or null (for a null or non-block type).
static BlockType asBlock(MlirType type) {
  return dyn_cast_or_null<BlockType>(unwrap(type));
}

static PtrType asPtr(MlirType type) {
  return dyn_cast_or_null<PtrType>(unwrap(type));
}

static MlirType getCheckedBlockType(Location loc, intptr_t rank,
                                    const int64_t *shape, Type elementType) {
  if (!elementType) {
    emitError(loc) << "a block needs an element type";
    return wrap(Type());
  }
  if (rank > 0 && !shape) {
    emitError(loc) << "a block of rank " << rank
                   << " needs a shape, got a null one";
    return wrap(Type());
  }
  ArrayRef<int64_t> extents(shape, rank > 0 ? rank : 0);
  return wrap(BlockType::getChecked([&] { return emitError(loc); },
                                    loc.getContext(), extents, elementType,
                                    Attribute()));
}

bool tileTypeIsABlock(MlirType type) { return bool(asBlock(type)); }

MlirType tileBlockTypeGet(MlirContext ctx, intptr_t rank, const int64_t *shape,
                          MlirType elementType) {
  if (!unwrap(ctx))
    return wrap(Type());
  return getCheckedBlockType(UnknownLoc::get(unwrap(ctx)), rank, shape,
                             unwrap(elementType));
}

MlirType tileBlockTypeGetChecked(MlirLocation loc, intptr_t rank,
                                 const int64_t *shape, MlirType elementType) {
  if (mlirLocationIsNull(loc))
    return wrap(Type());
  return getCheckedBlockType(unwrap(loc), rank, shape, unwrap(elementType));
}

intptr_t tileBlockTypeGetRank(MlirType type) {
  BlockType block = asBlock(type);
  return block ? intptr_t(block.getShape().size()) : -1;
}

int64_t tileBlockTypeGetDimSize(MlirType type, intptr_t pos) {
  BlockType block = asBlock(type);
  if (!block || pos < 0 || pos >= intptr_t(block.getShape().size()))
    return -1;
  return block.getShape()[pos];
}

MlirType tileBlockTypeGetElementType(MlirType type) {
  BlockType block = asBlock(type);
  return wrap(block ? block.getElementType() : Type());
}

MlirAttribute tileBlockTypeGetEncoding(MlirType type) {
  BlockType block = asBlock(type);
  return wrap(block ? block.getEncoding() : Attribute());
}

bool tileTypeIsAPtr(MlirType type) { return bool(asPtr(type)); }

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
  // Without a pointee there is no context to report to.
  if (!pointee)
    return wrap(Type());
  return getCheckedPtrType(UnknownLoc::get(pointee.getContext()), pointee);
}

MlirType tilePtrTypeGetChecked(MlirLocation loc, MlirType pointeeType) {
  if (mlirLocationIsNull(loc))
    return wrap(Type());
  return getCheckedPtrType(unwrap(loc), unwrap(pointeeType));
}

MlirType tilePtrTypeGetPointeeType(MlirType type) {
  PtrType ptr = asPtr(type);
  return wrap(ptr ? ptr.getPointeeType() : Type());
}
