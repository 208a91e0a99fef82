//===- LaunchTensorMaps.cpp - tensor maps made at launch ------------------===//
//
// A tensor descriptor or block pointer made in a kernel describes its tensor
// with values the kernel computes. Where those are products of the kernel's
// own arguments (the usual `make_tensor_descriptor(q, shape=[Z * H * N, D],
// strides=[D, 1], ...)`), the launcher can encode the TMA map from the
// launch's arguments exactly as it encodes a host descriptor's: the map
// becomes one more kernel parameter, and no device code builds it (Triton
// builds such maps in global scratch memory at the start of every program).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Chips.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace mlir::tile {
#define GEN_PASS_DEF_TILELAUNCHTENSORMAPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The largest power of two `tile.divisibility` says divides kernel argument
/// `arg` (1 where it says nothing).
int64_t argumentDivisor(func::FuncOp kernel, int64_t arg) {
  if (auto attr =
          kernel.getArgAttrOfType<IntegerAttr>(arg, "tile.divisibility"))
    return attr.getInt();
  return 1;
}

/// `value` as a product of the kernel's integer arguments and a constant
/// (through multiplications and sign or zero extensions), or nothing.
std::optional<LaunchProduct> asLaunchProduct(Value value, Block &entry) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &entry || !isa<IntegerType>(arg.getType()))
      return std::nullopt;
    return LaunchProduct{1, {int64_t(arg.getArgNumber())}};
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return LaunchProduct{constant.getSExtValue(), {}};
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<arith::ExtSIOp, arith::ExtUIOp>(op))
    return asLaunchProduct(op->getOperand(0), entry);
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(op)) {
    auto lhs = asLaunchProduct(mul.getLhs(), entry);
    auto rhs = asLaunchProduct(mul.getRhs(), entry);
    if (!lhs || !rhs)
      return std::nullopt;
    bool overflow = false;
    int64_t scale =
        llvm::SaturatingMultiply(uint64_t(std::abs(lhs->scale)),
                                 uint64_t(std::abs(rhs->scale)), &overflow);
    if (overflow || scale > (int64_t(1) << 40))
      return std::nullopt;
    lhs->scale *= rhs->scale;
    llvm::append_range(lhs->args, rhs->args);
    if (lhs->args.size() > kMaxLaunchProductFactors)
      return std::nullopt;
    return lhs;
  }
  return std::nullopt;
}

/// Whether a stride of `product` elements of `bytes` bytes is a positive
/// multiple of 16 bytes for every argument value the specialization allows.
bool isSixteenByteMultiple(func::FuncOp kernel, const LaunchProduct &product,
                           int64_t bytes) {
  if (product.scale <= 0)
    return false;
  // Powers of two only: 16 divides the product once 16 divides the product
  // of the powers of two known to divide its factors (saturated at 16, so
  // that a 2^40 scale times 2^30 divisibilities cannot overflow).
  int64_t known =
      std::min<int64_t>((product.scale & -product.scale) * bytes, 16);
  for (int64_t arg : product.args)
    known = std::min<int64_t>(known * argumentDivisor(kernel, arg), 16);
  return known == 16;
}

/// The name of kernel argument `arg` (its NameLoc, as the launch facts name
/// parameters).
std::string argumentName(BlockArgument arg) {
  if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
    return named.getName().str();
  return "arg" + std::to_string(arg.getArgNumber());
}

/// How the launcher makes `op`'s map from `kernel`'s arguments, or nothing
/// where it cannot, or TMA could not read it (alignment).
std::optional<TensorMapRecipe> getRecipe(func::FuncOp kernel,
                                         MakeTensorMapOp op) {
  Block &entry = kernel.getBody().front();
  auto base = dyn_cast<BlockArgument>(op.getBase());
  if (!base || base.getOwner() != &entry ||
      argumentDivisor(kernel, base.getArgNumber()) % 16 != 0)
    return std::nullopt;
  Type element = cast<PtrType>(base.getType()).getPointeeType();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  TensorMapRecipe recipe;
  recipe.base = base.getArgNumber();
  for (Value extent : op.getShape()) {
    auto product = asLaunchProduct(extent, entry);
    if (!product)
      return std::nullopt;
    recipe.shape.push_back(*product);
  }
  for (auto [d, stride] : llvm::enumerate(op.getStrides())) {
    auto product = asLaunchProduct(stride, entry);
    bool last = d + 1 == op.getStrides().size();
    if (!product || (last ? product->scale != 1 || !product->args.empty()
                          : !isSixteenByteMultiple(kernel, *product, bytes)))
      return std::nullopt;
    recipe.strides.push_back(*product);
  }
  return recipe;
}

/// `map` with loop-carried copies that no iteration changes seen through:
/// a block pointer advanced in a loop carries its map along unchanged.
Value throughUnchangedLoops(Value map) {
  while (true) {
    unsigned index;
    scf::ForOp loop;
    if (auto arg = dyn_cast<BlockArgument>(map)) {
      loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return map;
      index = arg.getArgNumber() - 1;
    } else if (auto result = dyn_cast<OpResult>(map)) {
      loop = dyn_cast<scf::ForOp>(result.getOwner());
      if (!loop)
        return map;
      index = result.getResultNumber();
    } else {
      return map;
    }
    if (loop.getYieldedValues()[index] != loop.getRegionIterArgs()[index])
      return map;
    map = loop.getInitArgs()[index];
  }
}

/// Drops `op`'s box of a tensor map where the map is not a kernel argument
/// (the pointers remain the access); points it at the argument where loops
/// only carried it.
template <typename OpTy> void keepArgumentBoxes(OpTy op, Block &entry) {
  Value map = op.getTensorMap();
  if (!map)
    return;
  Value traced = throughUnchangedLoops(map);
  auto arg = dyn_cast<BlockArgument>(traced);
  if (arg && arg.getOwner() == &entry) {
    op.getTensorMapMutable().assign(traced);
    return;
  }
  op.getTensorMapMutable().clear();
  op.getMapCoordsMutable().clear();
  op.removeMapDimsAttr();
}

struct LaunchTensorMapsPass
    : public tile::impl::TileLaunchTensorMapsBase<LaunchTensorMapsPass> {
  using TileLaunchTensorMapsBase::TileLaunchTensorMapsBase;

  void runOnOperation() override {
    bool tma = hasTensorMemoryAccelerator(chip);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      Block &entry = func.getBody().front();
      // Device functions have no launch to encode maps at.
      if (tma && func.isPublic())
        makeParameters(func);
      func.walk([&](Operation *op) {
        if (auto load = dyn_cast<LoadOp>(op))
          keepArgumentBoxes(load, entry);
        else if (auto store = dyn_cast<StoreOp>(op))
          keepArgumentBoxes(store, entry);
      });
    }
  }

  void makeParameters(func::FuncOp kernel) {
    Block &entry = kernel.getBody().front();
    llvm::StringSet<> names;
    for (BlockArgument arg : entry.getArguments())
      names.insert(argumentName(arg));
    SmallVector<MakeTensorMapOp> maps;
    kernel.walk([&](MakeTensorMapOp op) { maps.push_back(op); });
    for (MakeTensorMapOp op : maps) {
      std::optional<TensorMapRecipe> recipe = getRecipe(kernel, op);
      if (!recipe)
        continue;
      std::string base =
          argumentName(cast<BlockArgument>(op.getBase())) + ".tensor_map";
      recipe->name = base;
      for (int n = 1; names.contains(recipe->name); ++n)
        recipe->name = base + "_" + std::to_string(n);
      names.insert(recipe->name);
      MLIRContext *context = &getContext();
      unsigned index = kernel.getNumArguments();
      auto attrs = DictionaryAttr::get(
          context,
          {NamedAttribute(StringAttr::get(context, kTensorMapRecipeAttrName),
                          recipe->toAttr(context))});
      Location loc =
          NameLoc::get(StringAttr::get(context, recipe->name), op.getLoc());
      if (failed(kernel.insertArgument(index, TensorMapType::get(context),
                                       attrs, loc)))
        return signalPassFailure();
      op.replaceAllUsesWith(kernel.getArgument(index));
      op.erase();
    }
  }
};

} // namespace
