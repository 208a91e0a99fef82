//===- MapElementwise.cpp - tile.map_elementwise (tl.map_elementwise) -----===//
//
// The region is emitted once per `pack` registers of the thread, its
// arguments bound to those registers of each operand: its scalar ops,
// branches and loops become the thread's own, so an element runs only the
// branch it takes (a tile.select would run both).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult KernelEmitter::emitMapElementwise(MapElementwiseOp op) {
  int64_t pack = op.getPack();
  std::optional<BlockLayout> layout;
  FailureOr<SmallVector<SmallVector<Value>>> args =
      packedOperands(op, op.getArgs(), op.getResults().front(), pack, layout);
  if (failed(args))
    return failure();
  int64_t elements = layout ? layout->numRegisters() : 1;

  Block &body = op.getBody().front();
  ValueRange yielded = body.getTerminator()->getOperands();
  SmallVector<SmallVector<Value>> results(op.getNumResults());
  for (int64_t first = 0; first < elements; first += pack) {
    unsigned argument = 0;
    for (const SmallVector<Value> &values : *args)
      for (int64_t i = 0; i < pack; ++i)
        scalars.map(body.getArgument(argument++), values[first + i]);
    pushScope();
    for (Operation &inner : body.without_terminator())
      if (failed(emitOp(&inner)))
        return failure();
    popScope();
    for (auto [index, values] : llvm::enumerate(results))
      for (int64_t i = 0; i < pack; ++i) {
        Value value = getScalar(yielded[index * pack + i]);
        if (!value)
          return op.emitOpError() << "yields a value that could not be lowered";
        values.push_back(value);
      }
  }
  bindPackedResults(op.getResults(), results, layout);
  return success();
}
