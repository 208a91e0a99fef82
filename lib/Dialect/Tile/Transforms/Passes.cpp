//===- Passes.cpp - layout assignment -------------------------------------===//
//
// Layouts are linear: a thread owns `vector` consecutive row-major elements,
// consecutive threads own consecutive chunks. Values whose elements must sit
// in the same threads (operands and results of elementwise ops and memory
// accesses, the two sides of expand_dims and reshape, values carried by scf
// ops) form a group with one layout. The group's vector width is the widest
// that any of its loads and stores can use, so the memory accesses decide
// the distribution and the compiler, not the author, vectorizes.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

bool isBlock(Value value) { return isa<BlockType>(value.getType()); }

struct LayoutGroups {
  llvm::EquivalenceClasses<Value> classes;
  /// Widest access width wanted by a memory access in each group, by leader.
  llvm::DenseMap<Value, unsigned> preferredWidth;

  void join(Value a, Value b) {
    if (a && b && isBlock(a) && isBlock(b))
      classes.unionSets(a, b);
  }
  void add(Value value) {
    if (value && isBlock(value))
      classes.insert(value);
  }
};

/// Joins the values of `op` that must share a layout.
void collectGroups(Operation *op, LayoutGroups &groups) {
  for (Value result : op->getResults())
    groups.add(result);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        groups.add(arg);

  if (op->hasTrait<OpTrait::Elementwise>() || isa<AddPtrOp>(op)) {
    for (Value operand : op->getOperands())
      groups.join(operand, op->getResult(0));
    return;
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    groups.join(load.getPtr(), load.getResult());
    groups.join(load.getMask(), load.getResult());
    groups.join(load.getOther(), load.getResult());
    return;
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    groups.join(store.getPtr(), store.getValue());
    groups.join(store.getMask(), store.getValue());
    return;
  }
  if (isa<ExpandDimsOp, ReshapeOp, ScanOp>(op)) {
    groups.join(op->getOperand(0), op->getResult(0));
    return;
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    groups.join(dot.getAcc(), dot.getResult());
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (auto [init, arg, yielded, result] :
         llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                   yield.getOperands(), forOp.getResults())) {
      groups.join(init, arg);
      groups.join(arg, yielded);
      groups.join(yielded, result);
    }
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
      if (!region->empty())
        for (auto [yielded, result] :
             llvm::zip(region->front().getTerminator()->getOperands(),
                       ifOp.getResults()))
          groups.join(yielded, result);
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    auto condition = whileOp.getConditionOp();
    auto yield = whileOp.getYieldOp();
    for (auto [init, arg, yielded] :
         llvm::zip(whileOp.getInits(), whileOp.getBeforeArguments(),
                   yield.getOperands())) {
      groups.join(init, arg);
      groups.join(arg, yielded);
    }
    for (auto [forwarded, afterArg, result] :
         llvm::zip(condition.getArgs(), whileOp.getAfterArguments(),
                   whileOp.getResults())) {
      groups.join(forwarded, afterArg);
      groups.join(afterArg, result);
    }
  }
}

struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    if (numWarps == 0 || numWarps > 32) {
      getOperation().emitError()
          << "num-warps must be from 1 to 32, not " << numWarps.getValue();
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>())
      assignLayouts(func);
  }

  void assignLayouts(func::FuncOp func) {
    LayoutGroups groups;
    AxisInfoAnalysis axisInfo(func);
    func.walk([&](Operation *op) { collectGroups(op, groups); });
    func.walk([&](Operation *op) {
      Value ptr, mask, anchor;
      if (auto load = dyn_cast<LoadOp>(op)) {
        ptr = load.getPtr(), mask = load.getMask(), anchor = load.getResult();
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        ptr = store.getPtr(), mask = store.getMask(), anchor = store.getValue();
      }
      if (!anchor || !isBlock(anchor))
        return;
      Value leader = groups.classes.getOrInsertLeaderValue(anchor);
      unsigned &width = groups.preferredWidth[leader];
      width = std::max({width, 1u, axisInfo.getPreferredWidth(ptr, mask)});
    });

    MLIRContext *context = func.getContext();
    auto layoutFor = [&](Value value) -> Attribute {
      auto type = cast<BlockType>(value.getType());
      Value leader = groups.classes.getOrInsertLeaderValue(value);
      unsigned vector = std::max(1u, groups.preferredWidth.lookup(leader));
      // Whole chunks: the vector width divides the element count. And no
      // wider than a thread's share, as Triton's coalescing: wide chunks of
      // a small block would leave most threads idle.
      int64_t share =
          std::max<int64_t>(1, type.getNumElements() / (32 * numWarps));
      while (type.getNumElements() % vector != 0 || vector > share)
        vector /= 2;
      return BlockedLayoutAttr::get(context, vector, numWarps);
    };
    auto retype = [&](Value value) {
      if (isBlock(value))
        value.setType(
            cast<BlockType>(value.getType()).withEncoding(layoutFor(value)));
    };
    // Decide every layout before changing any type: the leaders are values,
    // and retyping does not change their identity.
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            retype(arg);
      for (Value result : op->getResults())
        retype(result);
    });
    func->setAttr("tile.num_warps",
                  IntegerAttr::get(IntegerType::get(context, 32), numWarps));
  }
};

} // namespace
