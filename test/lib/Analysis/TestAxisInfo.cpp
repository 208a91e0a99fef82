//===- TestAxisInfo.cpp - print the axis analysis' facts ------------------===//
//
// `tile-opt --test-print-axis-info` runs the axis analysis on each function
// and reports the facts of every integer and pointer value as remarks: on
// the op for its results, on the op owning a region for the region's block
// arguments. The lit tests in test/Analysis check them with
// -verify-diagnostics. With `clone`, every op without regions is cloned
// after the analysis ran and the clones are reported instead: values the
// analysis never saw, whose facts come from their operands'.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

bool hasFacts(Value value) {
  Type element = getElementTypeOrSelf(value.getType());
  return isa<IntegerType, IndexType, PtrType>(element);
}

std::string describe(AxisInfoAnalysis &analysis, Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  analysis.get(value).print(os);
  return text;
}

struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  TestAxisInfoPass() = default;
  TestAxisInfoPass(const TestAxisInfoPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Report the axis analysis' facts of every integer and pointer "
           "value as remarks";
  }

  Option<bool> clone{*this, "clone",
                     llvm::cl::desc("Report clones made after the analysis")};

  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface func) {
      AxisInfoAnalysis analysis(func);
      if (clone)
        cloneOps(func);
      func->walk([&](Operation *op) {
        if (clone && isCloned(op))
          return;
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              if (hasFacts(arg))
                op->emitRemark()
                    << "region " << region.getRegionNumber() << " argument "
                    << arg.getArgNumber() << ": " << describe(analysis, arg);
        for (OpResult result : op->getResults())
          if (hasFacts(result)) {
            InFlightDiagnostic remark = op->emitRemark();
            if (op->getNumResults() > 1)
              remark << "result " << result.getResultNumber() << ": ";
            remark << describe(analysis, result);
          }
      });
    });
  }

  /// Each op without regions gets a clone right after it, using the clones
  /// of its operands' definitions; the originals are marked.
  void cloneOps(FunctionOpInterface func) {
    SmallVector<Operation *> ops;
    func->walk([&](Operation *op) {
      if (op != func && op->getNumRegions() == 0 && op->getNumResults() > 0)
        ops.push_back(op);
    });
    IRMapping mapping;
    for (Operation *op : ops) {
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      builder.clone(*op, mapping);
      op->setAttr(kClonedAttr, UnitAttr::get(op->getContext()));
    }
  }
  static bool isCloned(Operation *op) { return op->hasAttr(kClonedAttr); }
  static constexpr StringLiteral kClonedAttr = "test.cloned";
};

} // namespace

namespace mlir::tile::test {
void registerTestAxisInfoPass() { PassRegistration<TestAxisInfoPass>(); }
} // namespace mlir::tile::test
