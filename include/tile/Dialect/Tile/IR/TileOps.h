//===- TileOps.h - tile dialect operations ----------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_H
#define TILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

namespace mlir::OpTrait {
/// Fails unless every block-typed operand and result of `op` has the same
/// layout (encoding), none included.
LogicalResult verifySameOperandsAndResultLayout(Operation *op);

template <typename ConcreteType>
class SameOperandsAndResultLayout
    : public TraitBase<ConcreteType, SameOperandsAndResultLayout> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifySameOperandsAndResultLayout(op);
  }
};
} // namespace mlir::OpTrait

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {
/// Whether `store` writes its block with TMA on `chip`: it names a box of a
/// tensor map that fitsTensorMapBox, and the chip has TMA. The layout pass
/// then leaves its value's layout as it is (the lowering stages it in
/// shared memory).
bool writesWithTensorMap(StoreOp store, llvm::StringRef chip);

/// Whether `value` is a constant block of zeros (a tile.constant, or a
/// tile.splat of a scalar constant; a float zero of either sign).
bool isZeroSplat(Value value);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
