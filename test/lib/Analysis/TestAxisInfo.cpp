//===- TestAxisInfo.cpp - print the axis analysis' facts ------------------===//
//
// `tile-opt --test-print-axis-info` runs the axis analysis on each function
// and reports the facts of every integer and pointer value as remarks: on
// the op for its results, on the op owning a region for the region's block
// arguments. The lit tests in test/Analysis check them with
// -verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

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

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Report the axis analysis' facts of every integer and pointer "
           "value as remarks";
  }

  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface func) {
      AxisInfoAnalysis analysis(func);
      func->walk([&](Operation *op) {
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
};

} // namespace

namespace mlir::tile::test {
void registerTestAxisInfoPass() { PassRegistration<TestAxisInfoPass>(); }
} // namespace mlir::tile::test
