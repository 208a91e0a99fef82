//===- TileOps.cpp - tile dialect operations ------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/Chips.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

LogicalResult mlir::OpTrait::verifySameOperandsAndResultLayout(Operation *op) {
  // The first block's layout is the one the others must have; naming the
  // value that differs tells the user which conversion is missing.
  std::optional<Attribute> layout;
  StringRef firstKind;
  unsigned firstIndex = 0;
  auto check = [&](Type type, StringRef kind, unsigned index) -> LogicalResult {
    auto block = dyn_cast<BlockType>(type);
    if (!block)
      return success();
    if (!layout) {
      layout = block.getEncoding();
      firstKind = kind;
      firstIndex = index;
      return success();
    }
    if (block.getEncoding() == *layout)
      return success();
    auto describe = [](Attribute encoding) -> std::string {
      if (!encoding)
        return "no layout";
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "layout " << encoding;
      return text;
    };
    return op->emitOpError()
           << "requires one layout for all block operands and results, but "
           << kind << " #" << index << " has " << describe(block.getEncoding())
           << " and " << firstKind << " #" << firstIndex << " has "
           << describe(*layout);
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers shared by verifiers and folders
//===----------------------------------------------------------------------===//

/// The splat value of a constant block or scalar, if `value` is one.
static Attribute getConstantSplat(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    return splat.getSplatValue<Attribute>();
  if (isa<IntegerAttr, FloatAttr>(attr))
    return attr;
  return {};
}

static std::optional<APInt> getConstantSplatInt(Value value) {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(getConstantSplat(value)))
    return attr.getValue();
  return std::nullopt;
}

static std::optional<APFloat> getConstantSplatFloat(Value value) {
  if (auto attr = dyn_cast_or_null<FloatAttr>(getConstantSplat(value)))
    return attr.getValue();
  return std::nullopt;
}

/// A splat constant of block type `type` holding `element`.
static Attribute makeSplat(Type type, Attribute element) {
  auto block = dyn_cast<BlockType>(type);
  if (!block || !element)
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(block), element);
}

bool mlir::tile::isZeroSplat(Value value) {
  if (auto integer = getConstantSplatInt(value))
    return integer->isZero();
  auto floating = getConstantSplatFloat(value);
  return floating && floating->isZero();
}

static bool isSplatOf(Value value, int64_t integer) {
  auto constant = getConstantSplatInt(value);
  return constant && *constant == integer;
}

/// Folds `op(a, b)` when both operands are splat constants, with `compute`
/// doing the scalar arithmetic.
template <typename AttrT, typename Fn>
static OpFoldResult foldSplatBinary(Type type, ArrayRef<Attribute> operands,
                                    Fn compute) {
  if (operands.size() != 2 || !operands[0] || !operands[1])
    return {};
  auto lhs = dyn_cast<SplatElementsAttr>(operands[0]);
  auto rhs = dyn_cast<SplatElementsAttr>(operands[1]);
  if (!lhs || !rhs)
    return {};
  auto a = dyn_cast<AttrT>(lhs.getSplatValue<Attribute>());
  auto b = dyn_cast<AttrT>(rhs.getSplatValue<Attribute>());
  if (!a || !b)
    return {};
  auto result = compute(a.getValue(), b.getValue());
  if (!result)
    return {};
  return makeSplat(type, AttrT::get(a.getType(), *result));
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `keyword %operand`, optional as a whole: the keyword alone is an error.
static ParseResult
parseKeywordOperand(OpAsmParser &parser,
                    std::optional<OpAsmParser::UnresolvedOperand> &operand,
                    StringRef keyword) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  OpAsmParser::UnresolvedOperand value;
  if (parser.parseOperand(value))
    return failure();
  operand = value;
  return success();
}

// The formats put no space before the directive: an absent operand prints
// nothing at all.
static void printKeywordOperand(OpAsmPrinter &printer, Operation *,
                                Value operand, StringRef keyword) {
  if (operand)
    printer << " " << keyword << " " << operand;
}

//===----------------------------------------------------------------------===//
// ArangeOp
//===----------------------------------------------------------------------===//

LogicalResult ArangeOp::verify() {
  // Read the bounds signed: the generated getters are unsigned.
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (end <= start)
    return emitOpError() << "needs end > start, but the range is [" << start
                         << ", " << end << ")";
  auto type = cast<BlockType>(getType());
  if (type.getRank() != 1 || type.getShape()[0] != end - start ||
      !type.getElementType().isInteger(32))
    return emitOpError() << "range [" << start << ", " << end
                         << ") gives !tile.block<" << end - start
                         << "xi32>, not " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  if (parser.parseAttribute(value) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a dense elements attribute typed as a "
                            "!tile.block");
  result.addAttribute("value", elements);
  // After layout assignment the result carries an encoding the attribute
  // type does not: it is printed after a second colon.
  Type resultType = elements.getType();
  if (succeeded(parser.parseOptionalColon()) && parser.parseType(resultType))
    return failure();
  result.addTypes(resultType);
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  printer << " ";
  printer.printAttribute(getValue());
  printer.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  if (getValue().getType() != getType())
    printer << " : " << getType();
}

LogicalResult ConstantOp::verify() {
  auto valueType = dyn_cast<BlockType>(getValue().getType());
  if (!valueType ||
      valueType.withEncoding({}) != cast<BlockType>(getType()).withEncoding({}))
    return emitOpError() << "value has type " << getValue().getType()
                         << " but the result is " << getType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// SplatOp
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  if (auto scalar = dyn_cast_or_null<TypedAttr>(adaptor.getSrc()))
    if (isa<IntegerAttr, FloatAttr>(scalar))
      return makeSplat(getType(), scalar);
  return {};
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

/// Verifies that `op` keeps the element type of its operand.
static LogicalResult verifySameElementType(Operation *op, BlockType src,
                                           BlockType result) {
  if (src.getElementType() != result.getElementType())
    return op->emitOpError()
           << "changes the element type from " << src.getElementType() << " to "
           << result.getElementType() << "; use tile.cast for conversions";
  return success();
}

/// Folds shape-only ops of a splat constant to a splat of the new shape, and
/// drops ops whose result type equals the operand's.
static OpFoldResult foldShapeOp(Value src, Attribute srcAttr, Type resultType) {
  if (src.getType() == resultType)
    return src;
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(srcAttr))
    return makeSplat(resultType, splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto result = cast<BlockType>(getType());
  int64_t axis = getAxis();
  if (axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-"
                         << src.getRank() << " block "
                         << formatShape(src.getShape()) << " (axis must be 0.."
                         << src.getRank() << ")";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "inserting a dimension at axis " << axis << " of "
                         << formatShape(src.getShape()) << " gives "
                         << formatShape(expected) << ", not "
                         << formatShape(result.getShape());
  return verifySameElementType(*this, src, result);
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return foldShapeOp(getSrc(), adaptor.getSrc(), getType());
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto result = cast<BlockType>(getType());
  if (src.getRank() != result.getRank())
    return emitOpError() << "cannot broadcast " << formatShape(src.getShape())
                         << " to " << formatShape(result.getShape())
                         << ": ranks differ (" << src.getRank() << " vs "
                         << result.getRank()
                         << "); insert dimensions with tile.expand_dims first";
  for (int64_t dim = 0; dim < src.getRank(); ++dim) {
    int64_t from = src.getShape()[dim], to = result.getShape()[dim];
    if (from != to && from != 1)
      return emitOpError() << "cannot broadcast " << formatShape(src.getShape())
                           << " to " << formatShape(result.getShape())
                           << ": dimension " << dim << " is " << from
                           << ", not 1";
  }
  return verifySameElementType(*this, src, result);
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  return foldShapeOp(getSrc(), adaptor.getSrc(), getType());
}

namespace {
/// broadcast(splat(x)) -> splat(x): a splat is already full-size.
struct BroadcastOfSplat : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x).
struct BroadcastOfBroadcast : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfSplat, BroadcastOfBroadcast>(context);
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto result = cast<BlockType>(getType());
  if (src.getNumElements() != result.getNumElements())
    return emitOpError() << "cannot reshape " << formatShape(src.getShape())
                         << " (" << src.getNumElements() << " elements) to "
                         << formatShape(result.getShape()) << " ("
                         << result.getNumElements() << " elements)";
  return verifySameElementType(*this, src, result);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  return foldShapeOp(getSrc(), adaptor.getSrc(), getType());
}

SmallVector<int32_t> TransOp::getPermutation() {
  if (auto order = getOrder())
    return SmallVector<int32_t>(*order);
  int64_t rank = cast<BlockType>(getSrc().getType()).getRank();
  SmallVector<int32_t> permutation;
  for (int64_t dim = rank - 1; dim >= 0; --dim)
    permutation.push_back(dim);
  return permutation;
}

namespace {
/// trans(load(p, mask, other)) -> load(trans(p), trans(mask), trans(other))
/// where the load has no other use, before layouts are assigned (see the
/// op's description).
struct TransposeTheLoad : OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransOp trans,
                                PatternRewriter &rewriter) const override {
    auto load = trans.getSrc().getDefiningOp<LoadOp>();
    auto resultType = cast<BlockType>(trans.getType());
    if (!load || !load->hasOneUse() || resultType.getEncoding() ||
        cast<BlockType>(load.getType()).getEncoding())
      return failure();
    SmallVector<int32_t> permutation = trans.getPermutation();
    auto transposed = [&](Value value) -> Value {
      if (!value)
        return value;
      auto type = cast<BlockType>(value.getType());
      SmallVector<int64_t> shape;
      for (int32_t dim : permutation)
        shape.push_back(type.getShape()[dim]);
      auto newType = BlockType::get(shape, type.getElementType());
      // A splat stays one (a load's zero `other` must stay recognizable).
      if (auto splat = value.getDefiningOp<SplatOp>())
        return SplatOp::create(rewriter, trans.getLoc(), newType,
                               splat.getSrc());
      SplatElementsAttr constant;
      if (matchPattern(value, m_Constant(&constant)))
        return ConstantOp::create(
            rewriter, trans.getLoc(), newType,
            cast<ElementsAttr>(
                makeSplat(newType, constant.getSplatValue<Attribute>())));
      return TransOp::create(rewriter, trans.getLoc(), newType, value,
                             trans.getOrderAttr());
    };
    rewriter.setInsertionPoint(load);
    Value ptr = transposed(load.getPtr());
    Value mask = transposed(load.getMask());
    Value other = transposed(load.getOther());
    auto moved = cast<LoadOp>(rewriter.clone(*load));
    moved.getPtrMutable().assign(ptr);
    if (mask)
      moved.getMaskMutable().assign(mask);
    if (other)
      moved.getOtherMutable().assign(other);
    // A box of a tensor map stays that box, its dimensions permuted.
    if (load.getTensorMap()) {
      SmallVector<int64_t> dims = load.getMapDimsOrIdentity(), movedDims;
      for (int32_t dim : permutation)
        movedDims.push_back(dims[dim]);
      moved.setMapDims(movedDims);
    }
    moved.getResult().setType(resultType);
    rewriter.replaceOp(trans, moved->getResults());
    rewriter.eraseOp(load);
    return success();
  }
};
} // namespace

void TransOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<TransposeTheLoad>(context);
}

LogicalResult TransOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto result = cast<BlockType>(getType());
  SmallVector<int32_t> permutation = getPermutation();
  if (int64_t(permutation.size()) != src.getRank())
    return emitOpError() << "order has " << permutation.size()
                         << " entries but the operand has rank "
                         << src.getRank();
  llvm::SmallBitVector seen(src.getRank());
  SmallVector<int64_t> expected;
  for (int32_t dim : permutation) {
    if (dim < 0 || dim >= src.getRank() || seen.test(dim))
      return emitOpError() << "order must be a permutation of 0.."
                           << src.getRank() - 1;
    seen.set(dim);
    expected.push_back(src.getShape()[dim]);
  }
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "permuting " << formatShape(src.getShape())
                         << " gives " << formatShape(expected) << ", not "
                         << formatShape(result.getShape());
  return verifySameElementType(*this, src, result);
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto result = cast<BlockType>(getType());
  if (!src.getEncoding() || !result.getEncoding())
    return emitOpError() << "converts between layouts: the operand and the "
                            "result need one each";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldShapeOp(getSrc(), adaptor.getSrc(), getType()))
    return folded;
  // convert(convert(x)) -> convert(x).
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

namespace {
/// convert(splat x) -> splat x and convert(arange) -> arange in the new
/// layout: ops that compute their elements from nothing take any layout.
struct ConvertOfElementSource : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *source = op.getSrc().getDefiningOp();
    if (!source || !isa<SplatOp, ArangeOp>(source))
      return failure();
    Operation *clone = rewriter.clone(*source);
    clone->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, clone->getResults());
    return success();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<ConvertOfElementSource>(context);
}

//===----------------------------------------------------------------------===//
// Facts for the compiler
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  if (!getDivisibility() && !getContiguity() && !getConstancy())
    return emitOpError()
           << "states no fact: give divisibility, contiguity or constancy";
  ArrayRef<int64_t> shape;
  if (auto block = dyn_cast<BlockType>(getType()))
    shape = block.getShape();
  size_t entries = std::max<size_t>(1, shape.size());
  auto check = [&](StringRef name, std::optional<ArrayRef<int64_t>> facts,
                   bool powerOfTwo) -> LogicalResult {
    if (!facts)
      return success();
    if (facts->size() != entries) {
      if (shape.empty())
        return emitOpError()
               << name << " needs 1 entry for a scalar, not " << facts->size();
      return emitOpError() << name << " needs " << entries
                           << " entries, one per dimension, not "
                           << facts->size();
    }
    for (auto [dim, fact] : llvm::enumerate(*facts)) {
      if (fact <= 0 || (powerOfTwo && !llvm::isPowerOf2_64(fact)))
        return emitOpError() << name << " entry " << dim << " is " << fact
                             << ", not a positive "
                             << (powerOfTwo ? "power of two" : "integer");
      int64_t extent = shape.empty() ? 1 : shape[dim];
      if (!powerOfTwo && fact > extent)
        return emitOpError() << name << " entry " << dim << " is " << fact
                             << ", more than the extent " << extent;
    }
    return success();
  };
  if (failed(check("divisibility", getDivisibility(), true)) ||
      failed(check("contiguity", getContiguity(), false)) ||
      failed(check("constancy", getConstancy(), false)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Both scalars, or both blocks of one shape.
static LogicalResult verifySameShape(Operation *op, Type a, StringRef aName,
                                     Type b, StringRef bName) {
  auto blockA = dyn_cast<BlockType>(a), blockB = dyn_cast<BlockType>(b);
  if (!blockA && !blockB)
    return success();
  if (!blockA || !blockB)
    return op->emitOpError() << aName << " and " << bName
                             << " must both be blocks or both scalars; "
                                "splat the scalar first";
  if (blockA.getShape() != blockB.getShape())
    return op->emitOpError()
           << aName << " is " << formatShape(blockA.getShape()) << " but "
           << bName << " is " << formatShape(blockB.getShape())
           << "; broadcast them to one shape first";
  return success();
}

LogicalResult AddPtrOp::verify() {
  return verifySameShape(*this, getPtr().getType(), "pointer",
                         getOffset().getType(), "offset");
}

OpFoldResult AddPtrOp::fold(FoldAdaptor) {
  if (isSplatOf(getOffset(), 0))
    return getPtr();
  return {};
}

/// The cache operator, eviction priority and volatility of a load or store:
/// what PTX takes (an operator and a priority cannot be combined, volatile
/// takes neither).
static LogicalResult verifyMemoryHints(Operation *op,
                                       std::optional<StringRef> cache,
                                       std::optional<StringRef> evict,
                                       bool isVolatile,
                                       ArrayRef<StringRef> operators) {
  if (cache && !llvm::is_contained(operators, *cache))
    return op->emitOpError()
           << "cache operator '" << *cache << "' is not one of "
           << llvm::join(operators, ", ");
  if (evict && *evict != "evict_first" && *evict != "evict_last")
    return op->emitOpError() << "eviction priority '" << *evict
                             << "' is not evict_first or evict_last";
  if (cache && evict)
    return op->emitOpError() << "a cache operator and an eviction priority "
                                "cannot be combined (PTX has no such form)";
  if (isVolatile && (cache || evict))
    return op->emitOpError()
           << "a volatile access takes no cache operator or eviction priority";
  return success();
}

/// The order of an atomic load or store: with a scope, one of `allowed`,
/// and no cache hint or volatility besides.
static LogicalResult verifyMemoryOrder(Operation *op,
                                       std::optional<MemSemantic> sem,
                                       std::optional<MemScope> scope,
                                       bool hasHints, MemSemantic allowed) {
  if (!sem && !scope)
    return success();
  if (!sem || !scope)
    return op->emitOpError() << "an atomic access needs both sem and scope";
  if (*sem != allowed && *sem != MemSemantic::relaxed)
    return op->emitOpError()
           << "an atomic "
           << (allowed == MemSemantic::acquire ? "load" : "store") << " is "
           << stringifyMemSemantic(allowed) << " or relaxed, not "
           << stringifyMemSemantic(*sem);
  if (hasHints)
    return op->emitOpError() << "an atomic access takes no cache operator, "
                                "eviction priority or volatile";
  return success();
}

/// The identity permutation of `rank` dimensions, or `dims`.
static SmallVector<int64_t>
dimsOrIdentity(std::optional<ArrayRef<int64_t>> dims, int64_t rank) {
  if (dims)
    return SmallVector<int64_t>(*dims);
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

/// The checks of a `tensor_map %map[coords] {map_dims}` box: a block of
/// pointers, one coordinate per dimension, `map_dims` a permutation.
static LogicalResult verifyTensorMapBox(Operation *op, Type ptrType,
                                        Value tensorMap, ValueRange coords,
                                        std::optional<ArrayRef<int64_t>> dims) {
  if (!tensorMap) {
    if (!coords.empty() || dims)
      return op->emitOpError()
             << "has tensor map coordinates or map_dims but no tensor map";
    return success();
  }
  auto block = dyn_cast<BlockType>(ptrType);
  if (!block)
    return op->emitOpError() << "reads a box of a tensor map into a block, "
                                "not a scalar";
  int64_t rank = block.getRank();
  if (int64_t(coords.size()) != rank)
    return op->emitOpError()
           << "has " << coords.size() << " tensor map coordinates for a rank-"
           << rank << " block (one per dimension)";
  if (rank > kMaxTensorMapRank)
    return op->emitOpError() << "reads a rank-" << rank
                             << " box of a tensor map; TMA boxes have at most "
                             << kMaxTensorMapRank << " dimensions";
  SmallVector<int64_t> sorted = dimsOrIdentity(dims, rank);
  llvm::sort(sorted);
  if (int64_t(sorted.size()) != rank ||
      sorted != llvm::to_vector(llvm::seq<int64_t>(0, rank)))
    return op->emitOpError()
           << "map_dims must be a permutation of the " << rank << " dimensions";
  return success();
}

LogicalResult MakeTensorMapOp::verify() {
  size_t rank = getShape().size();
  if (rank == 0 || int64_t(rank) > kMaxTensorMapRank)
    return emitOpError() << "describes a rank-" << rank
                         << " tensor; tensor maps have 1 to "
                         << kMaxTensorMapRank << " dimensions";
  if (getStrides().size() != rank)
    return emitOpError() << "has " << getStrides().size() << " strides for "
                         << rank << " dimensions";
  Type element = cast<PtrType>(getBase().getType()).getPointeeType();
  if (!element.isIntOrFloat() || element.isInteger(1) ||
      !llvm::is_contained({8u, 16u, 32u, 64u}, element.getIntOrFloatBitWidth()))
    return emitOpError() << "describes a tensor of " << element
                         << "; tensor maps hold 1-, 2-, 4- or 8-byte numbers";
  return success();
}

SmallVector<int64_t> LoadOp::getMapDimsOrIdentity() {
  return dimsOrIdentity(getMapDims(), getMapCoords().size());
}

SmallVector<int64_t> StoreOp::getMapDimsOrIdentity() {
  return dimsOrIdentity(getMapDims(), getMapCoords().size());
}

SmallVector<int64_t> AsyncCopyOp::getMapDimsOrIdentity() {
  return dimsOrIdentity(getMapDims(), getMapCoords().size());
}

LogicalResult LoadOp::verify() {
  if (failed(verifyMemoryOrder(*this, getSem(), getScope(),
                               getCache() || getEvict() || getIsVolatile(),
                               MemSemantic::acquire)))
    return failure();
  if (getTensorMap() && (getSem() || getIsVolatile()))
    return emitOpError() << "reads a tensor map's box with TMA, which is "
                            "neither atomic nor volatile";
  if (failed(verifyTensorMapBox(*this, getPtr().getType(), getTensorMap(),
                                getMapCoords(), getMapDims())))
    return failure();
  return verifyMemoryHints(*this, getCache(), getEvict(), getIsVolatile(),
                           {"ca", "cg", "cv"});
}

LogicalResult StoreOp::verify() {
  if (failed(verifyMemoryOrder(*this, getSem(), getScope(),
                               getCache() || getEvict() || getIsVolatile(),
                               MemSemantic::release)))
    return failure();
  if (getTensorMap() && (getSem() || getIsVolatile()))
    return emitOpError() << "writes a tensor map's box with TMA, which is "
                            "neither atomic nor volatile";
  if (failed(verifyTensorMapBox(*this, getPtr().getType(), getTensorMap(),
                                getMapCoords(), getMapDims())))
    return failure();
  return verifyMemoryHints(*this, getCache(), getEvict(), getIsVolatile(),
                           {"wb", "cg", "cs", "wt"});
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  // A volatile or atomic load is not merged with another or moved: as if it
  // wrote.
  if (getIsVolatile() || getSem())
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

/// The element types `kind` applies to, as Triton allows them, for the
/// message; empty when `element` is one of them.
static StringRef unsupportedAtomicTypes(AtomicKind kind, Type element) {
  bool isInt = element.isInteger(32) || element.isInteger(64);
  bool isWideFloat = element.isF32() || element.isF64();
  switch (kind) {
  case AtomicKind::add:
    if (isInt || isWideFloat || element.isF16() || element.isBF16())
      return "";
    return "i32, i64, f16, bf16, f32 or f64";
  case AtomicKind::max:
  case AtomicKind::min:
  case AtomicKind::xchg:
    if (isInt || isWideFloat)
      return "";
    return "i32, i64, f32 or f64";
  case AtomicKind::umax:
  case AtomicKind::umin:
  case AtomicKind::bit_and:
  case AtomicKind::bit_or:
  case AtomicKind::bit_xor:
    return isInt ? "" : "i32 or i64";
  }
  llvm_unreachable("unknown atomic kind");
}

LogicalResult AtomicRMWOp::verify() {
  Type element = getElementTypeOrSelf(getResult().getType());
  StringRef allowed = unsupportedAtomicTypes(getKind(), element);
  if (!allowed.empty())
    return emitOpError() << "'" << stringifyAtomicKind(getKind())
                         << "' does not apply to " << element
                         << " elements, only to " << allowed;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type element = getElementTypeOrSelf(getResult().getType());
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError() << "compares and swaps elements of 16, 32 or 64 "
                            "bits, not "
                         << element;
  return success();
}

/// An atomic reads and writes the memory behind its pointers.
static void getAtomicEffects(
    OpOperand &ptr,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &ptr,
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &ptr,
                       SideEffects::DefaultResource::get());
}

void AtomicRMWOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getAtomicEffects(getPtrMutable(), effects);
}

void AtomicCASOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getAtomicEffects(getPtrMutable(), effects);
}

namespace {
/// A mask that is a constant all-true block is no mask; an all-false one
/// means the load reads nothing and yields `other`.
struct LoadConstantMask : public OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMask())
      return failure();
    auto mask = getConstantSplatInt(op.getMask());
    if (!mask)
      return failure();
    if (mask->isOne()) { // keeps the cache hints
      rewriter.modifyOpInPlace(op, [&] {
        op.getMaskMutable().clear();
        op.getOtherMutable().clear();
      });
      return success();
    }
    if (!op.getOther())
      return failure();
    rewriter.replaceOp(op, op.getOther());
    return success();
  }
};

struct StoreConstantMask : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMask())
      return failure();
    auto mask = getConstantSplatInt(op.getMask());
    if (!mask)
      return failure();
    if (mask->isOne()) {
      rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
      return success();
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<LoadConstantMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<StoreConstantMask>(context);
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

TypedAttr mlir::tile::getCombineIdentity(CombineKind kind, Type element) {
  if (kind == CombineKind::custom)
    return {};
  Builder builder(element.getContext());
  if (auto floatType = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case CombineKind::sum:
      return builder.getFloatAttr(
          element, APFloat::getZero(semantics, /*Negative=*/true));
    case CombineKind::max:
    case CombineKind::min:
      return builder.getFloatAttr(
          element,
          APFloat::getInf(semantics, /*Negative=*/kind == CombineKind::max));
    case CombineKind::maxnum:
    case CombineKind::minnum:
      return builder.getFloatAttr(element, APFloat::getQNaN(semantics));
    case CombineKind::umax:
    case CombineKind::umin:
    case CombineKind::custom:
      break;
    }
    return {};
  }
  unsigned width = element.getIntOrFloatBitWidth();
  APInt value = kind == CombineKind::max    ? APInt::getSignedMinValue(width)
                : kind == CombineKind::min  ? APInt::getSignedMaxValue(width)
                : kind == CombineKind::umin ? APInt::getMaxValue(width)
                                            : APInt::getZero(width);
  if (width == 1) // i1 max is "or", min is "and"
    value = kind == CombineKind::min || kind == CombineKind::umin
                ? APInt::getAllOnes(1)
                : APInt::getZero(1);
  return builder.getIntegerAttr(element, value);
}

/// Checks the operands (one block, or several of one shape for `custom`),
/// the axis, and that a `custom` kind comes with a combine region taking the
/// operands' element types twice (the earlier elements, then the later ones)
/// and yielding them once, and that the other kinds come without one.
static LogicalResult verifyCombine(Operation *op, CombineKind kind,
                                   ValueRange srcs, int64_t axis,
                                   Region &combine) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  auto src = cast<BlockType>(srcs.front().getType());
  if (kind != CombineKind::custom && srcs.size() != 1)
    return op->emitOpError() << "with kind '" << stringifyCombineKind(kind)
                             << "' takes one operand, not " << srcs.size()
                             << " (only 'custom' combines several)";
  SmallVector<Type> elements;
  for (Value value : srcs) {
    auto block = cast<BlockType>(value.getType());
    if (block.getShape() != src.getShape())
      return op->emitOpError() << "operands must have one shape, got "
                               << formatShape(src.getShape()) << " and "
                               << formatShape(block.getShape());
    elements.push_back(block.getElementType());
  }
  if (axis >= src.getRank())
    return op->emitOpError()
           << "axis " << axis << " is out of range for a rank-" << src.getRank()
           << " block " << formatShape(src.getShape());
  Type element = src.getElementType();
  if ((kind == CombineKind::maxnum || kind == CombineKind::minnum) &&
      !isa<FloatType>(element))
    return op->emitOpError()
           << "kind '" << stringifyCombineKind(kind)
           << "' ignores NaN and takes float elements, not " << element;
  if ((kind == CombineKind::umax || kind == CombineKind::umin) &&
      !isa<IntegerType>(element))
    return op->emitOpError()
           << "kind '" << stringifyCombineKind(kind)
           << "' compares unsigned integers and takes integer elements, not "
           << element;
  if (kind != CombineKind::custom) {
    if (!combine.empty())
      return op->emitOpError() << "takes a combine region only with kind "
                                  "'custom', not '"
                               << stringifyCombineKind(kind) << "'";
    return success();
  }
  if (combine.empty())
    return op->emitOpError() << "with kind 'custom' needs a combine region";
  auto describe = [&](InFlightDiagnostic &diag, unsigned times) {
    for (unsigned i = 0; i < times * elements.size(); ++i)
      diag << (i ? ", " : "") << elements[i % elements.size()];
  };
  Block &body = combine.front();
  SmallVector<Type> argTypes(body.getArgumentTypes());
  SmallVector<Type> twice(elements);
  twice.append(elements);
  if (argTypes != twice) {
    if (elements.size() == 1)
      return op->emitOpError()
             << "combine region must take two " << element << " arguments";
    InFlightDiagnostic diag = op->emitOpError()
                              << "combine region must take arguments (";
    describe(diag, 2);
    return diag << ")";
  }
  // The lowering inlines the region per combination: it may check
  // (tile.assert) but not print.
  WalkResult printed =
      combine.walk([](PrintOp) { return WalkResult::interrupt(); });
  if (printed.wasInterrupted())
    return op->emitOpError() << "combine region cannot print (tl.device_print "
                                "in a combine function is not supported)";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || SmallVector<Type>(yield.getValues().getTypes()) != elements) {
    InFlightDiagnostic diag = op->emitOpError() << "combine region must yield ";
    if (elements.size() == 1)
      diag << "one ";
    describe(diag, 1);
    return diag;
  }
  return success();
}

void ReduceOp::build(OpBuilder &builder, OperationState &state,
                     CombineKind kind, Value src, int32_t axis) {
  auto type = cast<BlockType>(src.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  Type resultType =
      shape.empty() ? type.getElementType() : Type(type.withShape(shape));
  state.addOperands(src);
  state.addAttribute(getKindAttrName(state.name),
                     CombineKindAttr::get(builder.getContext(), kind));
  state.addAttribute(getAxisAttrName(state.name),
                     builder.getI32IntegerAttr(axis));
  state.addRegion();
  state.addTypes(resultType);
}

LogicalResult ReduceOp::verify() {
  if (failed(
          verifyCombine(*this, getKind(), getSrcs(), getAxis(), getCombine())))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "has " << getSrcs().size() << " operands but "
                         << getResults().size() << " results";
  for (auto [value, result] : llvm::zip(getSrcs(), getResultTypes())) {
    auto src = cast<BlockType>(value.getType());
    SmallVector<int64_t> shape(src.getShape());
    shape.erase(shape.begin() + getAxis());
    if (shape.empty()) {
      if (result != src.getElementType())
        return emitOpError() << "reducing a rank-1 block gives a scalar "
                             << src.getElementType() << ", not " << result;
      continue;
    }
    auto block = dyn_cast<BlockType>(result);
    if (!block || block.getShape() != ArrayRef<int64_t>(shape) ||
        block.getElementType() != src.getElementType())
      return emitOpError() << "reducing " << formatShape(src.getShape())
                           << " along axis " << getAxis() << " gives a "
                           << formatShape(shape) << " block of "
                           << src.getElementType() << ", not " << result;
  }
  return success();
}

void ScanOp::build(OpBuilder &builder, OperationState &state, CombineKind kind,
                   Value src, int32_t axis) {
  state.addOperands(src);
  state.addAttribute(getKindAttrName(state.name),
                     CombineKindAttr::get(builder.getContext(), kind));
  state.addAttribute(getAxisAttrName(state.name),
                     builder.getI32IntegerAttr(axis));
  state.addRegion();
  state.addTypes(src.getType());
}

LogicalResult ScanOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &inferred) {
  // Each result has its operand's type (and layout).
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

LogicalResult ScanOp::verify() {
  return verifyCombine(*this, getKind(), getSrcs(), getAxis(), getCombine());
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

/// The checks `tile.dot` and `tile.ring_dot` share: a[M x K] * b[K x N]
/// + acc[M x N] with one input element type (or two 8-bit float ones).
/// The element rules: f16, bf16, f32 or 8-bit float inputs with an f32
/// accumulator, i8 inputs with an i32 one; and, where `fmaTypes` (tile.dot,
/// whose FMA path takes them), f64 inputs with an f64 accumulator. `batched`:
/// rank-3 operands (a batch of products) are allowed too.
static LogicalResult verifyDotShapes(Operation *op, BlockType a, BlockType b,
                                     BlockType acc, bool fmaTypes = false,
                                     bool batched = false) {
  int64_t rank = a.getRank();
  bool rankOk = rank == 2 || (batched && rank == 3);
  if (!rankOk || b.getRank() != rank || acc.getRank() != rank)
    return op->emitOpError()
           << "needs rank-2" << (batched ? " or rank-3 (batched)" : "")
           << " operands of one rank, got " << formatShape(a.getShape()) << ", "
           << formatShape(b.getShape()) << " and "
           << formatShape(acc.getShape());
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = acc.getShape();
  if (rank == 3 && (bs[0] != as[0] || cs[0] != as[0]))
    return op->emitOpError()
           << "batch sizes differ: a is " << formatShape(as) << ", b is "
           << formatShape(bs) << " and the accumulator " << formatShape(cs);
  int64_t m = as[rank - 2], k = as[rank - 1], n = bs[rank - 1];
  if (bs[rank - 2] != k)
    return op->emitOpError()
           << "inner dimensions differ: a is " << formatShape(as)
           << " and b is " << formatShape(bs);
  if (cs[rank - 2] != m || cs[rank - 1] != n)
    return op->emitOpError() << "accumulator is " << formatShape(cs)
                             << " but a*b is " << m << "x" << n;
  Type element = a.getElementType();
  // 8-bit floats may mix kinds (wgmma takes e4m3 times e5m2).
  bool float8 = isFloat8Type(element) && isFloat8Type(b.getElementType());
  if (element != b.getElementType() && !float8)
    return op->emitOpError() << "a and b must have one element type (or "
                                "both be 8-bit floats), got "
                             << element << " and " << b.getElementType();
  Type want;
  if (element.isF16() || element.isBF16() || element.isF32() || float8)
    want = Float32Type::get(op->getContext());
  else if (element.isInteger(8))
    want = IntegerType::get(op->getContext(), 32);
  else if (fmaTypes && element.isF64())
    want = element;
  else
    return op->emitOpError()
           << "inputs must be f16, bf16, f32 or 8-bit floats (f32 "
              "accumulator)"
           << (fmaTypes ? ", i8 (i32 accumulator) or f64 (f64 accumulator)"
                        : " or i8 (i32 accumulator)")
           << ", not " << element;
  if (acc.getElementType() != want)
    return op->emitOpError()
           << "accumulator of " << element << " inputs must be " << want
           << ", not " << acc.getElementType();
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<BlockType>(getA().getType());
  if (getTf32() && !a.getElementType().isF32())
    return emitOpError() << "reads tf32 from f32 inputs only, not "
                         << a.getElementType();
  return verifyDotShapes(*this, a, cast<BlockType>(getB().getType()),
                         cast<BlockType>(getAcc().getType()),
                         /*fmaTypes=*/true, /*batched=*/true);
}

//===----------------------------------------------------------------------===//
// Shared-memory rings
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyOp::verify() {
  auto ptr = cast<BlockType>(getPtr().getType());
  BlockType slot = getRing().getType().getBlock();
  if (ptr.getShape() != slot.getShape() ||
      cast<PtrType>(ptr.getElementType()).getPointeeType() !=
          slot.getElementType())
    return emitOpError() << "copies " << formatShape(ptr.getShape()) << " "
                         << ptr.getElementType() << " into slots of "
                         << formatShape(slot.getShape()) << " "
                         << slot.getElementType();
  return verifyTensorMapBox(*this, ptr, getTensorMap(), getMapCoords(),
                            getMapDims());
}

LogicalResult RingLoadOp::verify() {
  BlockType slot = getRing().getType().getBlock();
  auto result = cast<BlockType>(getResult().getType());
  if (slot.getRank() != 1)
    return emitOpError() << "reads rank-1 rings (row statistics), not a ring "
                            "of "
                         << formatShape(slot.getShape()) << " blocks";
  if (result.getShape() != slot.getShape() ||
      result.getElementType() != slot.getElementType())
    return emitOpError() << "reads " << formatShape(slot.getShape()) << " "
                         << slot.getElementType() << " slots into "
                         << formatShape(result.getShape()) << " "
                         << result.getElementType();
  return success();
}

LogicalResult RingStoreOp::verify() {
  BlockType slot = getRing().getType().getBlock();
  auto value = cast<BlockType>(getValue().getType());
  if (value.getShape() != slot.getShape() ||
      value.getElementType() != slot.getElementType())
    return emitOpError() << "stores " << formatShape(value.getShape()) << " "
                         << value.getElementType() << " into "
                         << formatShape(slot.getShape()) << " "
                         << slot.getElementType() << " slots";
  return success();
}

bool mlir::tile::isWarpGroupRegisterOperand(BlockType a, MmaLayoutAttr acc) {
  auto layout = dyn_cast_or_null<MmaLayoutAttr>(a.getEncoding());
  int64_t k = a.getShape()[1];
  return layout && acc && layout.getVersion() == 3 &&
         layout.getWarpsPerCTA() == acc.getWarpsPerCTA() &&
         acc.getWarpsPerCTA()[1] == 1 && layout.getInstrN() % 16 == 0 &&
         k % layout.getInstrN() == 0 &&
         a.getElementType().getIntOrFloatBitWidth() == 16;
}

bool mlir::tile::fitsTensorMapBox(BlockType block, ArrayRef<int64_t> mapDims) {
  Type element = block.getElementType();
  if (block.getRank() != 2 || mapDims.size() != 2 || element.isInteger(1) ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      element.getIntOrFloatBitWidth() > 64)
    return false;
  // The block dimension along the map's outer one: the box's rows.
  unsigned outer = mapDims[0] == 0 ? 0 : 1;
  int64_t rows = block.getShape()[outer];
  int64_t rowBytes =
      block.getShape()[1 - outer] * element.getIntOrFloatBitWidth() / 8;
  return rows <= 256 && (rowBytes == 32 || rowBytes == 64 ||
                         (rowBytes >= 128 && rowBytes % 128 == 0));
}

bool mlir::tile::writesWithTensorMap(StoreOp store, StringRef chip) {
  auto block = dyn_cast<BlockType>(store.getValue().getType());
  return store.getTensorMap() && block && hasTensorMemoryAccelerator(chip) &&
         fitsTensorMapBox(block, store.getMapDimsOrIdentity());
}

BlockType RingDotOp::getABlock() {
  if (auto ring = dyn_cast<RingType>(getA().getType()))
    return ring.getBlock();
  return cast<BlockType>(getA().getType());
}

BlockType RingDotOp::getBBlock() {
  BlockType slot = getB().getType().getBlock();
  if (!getBTransposed())
    return slot;
  return slot.withShape({slot.getShape()[1], slot.getShape()[0]});
}

LogicalResult RingDotOp::verify() {
  auto acc = cast<BlockType>(getAcc().getType());
  if (failed(verifyDotShapes(*this, getABlock(), getBBlock(), acc)))
    return failure();
  if (getBTransposed() &&
      getBBlock().getElementType().getIntOrFloatBitWidth() != 16)
    return emitOpError() << "reads B transposed from its ring, which the "
                            "tensor cores do for 16-bit elements only";
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(acc.getEncoding());
  if (!mma || (mma.getVersion() != 2 && mma.getVersion() != 3))
    return emitOpError() << "accumulator needs a #tile.mma layout of "
                            "version 2 (mma.sync) or 3 (wgmma)";
  bool fromRing = isa<RingType>(getA().getType());
  if (fromRing != bool(getASlot()))
    return emitOpError() << (fromRing ? "A from a ring needs a slot index"
                                      : "A in registers takes no slot index");
  if (mma.getVersion() == 2) {
    if (!fromRing)
      return emitOpError() << "on mma.sync reads A from a ring";
    // tile.dot widens 8-bit floats in registers for mma.sync.
    if (isFloat8Type(getABlock().getElementType()))
      return emitOpError() << "on mma.sync takes no 8-bit float operands";
    return success();
  }
  if (!fromRing && !isWarpGroupRegisterOperand(getABlock(), mma))
    return emitOpError()
           << "A in registers must be a 16-bit block in the accumulator "
              "layout of the dot's warps (#tile.mma version 3, the same warps, "
              "one warp column, instruction columns a multiple of 16 dividing "
              "K), not "
           << getA().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise folders
//===----------------------------------------------------------------------===//

OpFoldResult AddIOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0))
    return getLhs();
  if (isSplatOf(getLhs(), 0))
    return getRhs();
  return foldSplatBinary<IntegerAttr>(
      getType(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      });
}

namespace {
/// `x + tile.dot(a, b, 0)` (either operand order) becomes `tile.dot(a, b,
/// x)` when the sum is the dot's only use, so the dot accumulates into `x`
/// instead of a second accumulator that is added afterwards. For floats this
/// reassociates the sum exactly as Triton's combine pass does.
template <typename AddOp> struct AccumulateIntoDot : OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    for (auto operands : {std::pair(add.getLhs(), add.getRhs()),
                          std::pair(add.getRhs(), add.getLhs())}) {
      Value dotOperand = operands.first, accumulator = operands.second;
      auto dot = dotOperand.template getDefiningOp<DotOp>();
      // In the sum's block only: a dot hoisted out of a loop stays there.
      if (!dot || !dot->hasOneUse() || dot->getBlock() != add->getBlock() ||
          !isZeroSplat(dot.getAcc()))
        continue;
      rewriter.modifyOpInPlace(
          dot, [&] { dot.getAccMutable().assign(accumulator); });
      // The accumulator may be defined after the dot: the dot moves to the
      // sum, where every operand is available.
      rewriter.moveOpBefore(dot, add);
      rewriter.replaceOp(add, dot.getResult());
      return success();
    }
    return failure();
  }
};
} // namespace

void AddIOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<AccumulateIntoDot<AddIOp>>(context);
}

void AddFOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<AccumulateIntoDot<AddFOp>>(context);
}

OpFoldResult SubIOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0))
    return getLhs();
  return foldSplatBinary<IntegerAttr>(
      getType(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      });
}

OpFoldResult MulIOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 1))
    return getLhs();
  if (isSplatOf(getLhs(), 1))
    return getRhs();
  if (isSplatOf(getRhs(), 0))
    return getRhs();
  if (isSplatOf(getLhs(), 0))
    return getLhs();
  return foldSplatBinary<IntegerAttr>(
      getType(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      });
}

OpFoldResult DivSIOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 1))
    return getLhs();
  return foldSplatBinary<IntegerAttr>(
      getType(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        // Division by zero and INT_MIN / -1 are left to run time.
        if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        return a.sdiv(b);
      });
}

static bool isFloatSplat(Value value, double expected, bool negativeZero) {
  auto constant = getConstantSplatFloat(value);
  if (!constant)
    return false;
  if (expected == 0.0)
    return constant->isZero() && constant->isNegative() == negativeZero;
  return constant->convertToDouble() == expected;
}

OpFoldResult AddFOp::fold(FoldAdaptor adaptor) {
  // Only -0.0 is an identity for float addition: -0.0 + +0.0 is +0.0.
  if (isFloatSplat(getRhs(), 0.0, /*negativeZero=*/true))
    return getLhs();
  if (isFloatSplat(getLhs(), 0.0, /*negativeZero=*/true))
    return getRhs();
  return foldSplatBinary<FloatAttr>(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a + b;
      });
}

OpFoldResult SubFOp::fold(FoldAdaptor adaptor) {
  if (isFloatSplat(getRhs(), 0.0, /*negativeZero=*/false))
    return getLhs();
  return foldSplatBinary<FloatAttr>(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a - b;
      });
}

OpFoldResult MulFOp::fold(FoldAdaptor adaptor) {
  if (isFloatSplat(getRhs(), 1.0, false))
    return getLhs();
  if (isFloatSplat(getLhs(), 1.0, false))
    return getRhs();
  return foldSplatBinary<FloatAttr>(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a * b;
      });
}

OpFoldResult CmpIOp::fold(FoldAdaptor adaptor) {
  auto lhs = getConstantSplatInt(getLhs());
  auto rhs = getConstantSplatInt(getRhs());
  if (!lhs || !rhs)
    return {};
  bool result = arith::applyCmpPredicate(getPredicate(), *lhs, *rhs);
  return makeSplat(getType(),
                   IntegerAttr::get(IntegerType::get(getContext(), 1), result));
}

OpFoldResult SelectOp::fold(FoldAdaptor) {
  if (getTrueValue() == getFalseValue())
    return getTrueValue();
  auto condition = getConstantSplatInt(getCondition());
  if (!condition)
    return {};
  return condition->isOne() ? getTrueValue() : getFalseValue();
}

LogicalResult CastOp::verify() {
  auto src = dyn_cast<BlockType>(getSrc().getType());
  auto result = dyn_cast<BlockType>(getType());
  if (src && result && src.getShape() != result.getShape())
    return emitOpError() << "cannot change the shape from "
                         << formatShape(src.getShape()) << " to "
                         << formatShape(result.getShape())
                         << "; a cast converts elements only";
  if (failed(verifySameShape(*this, getSrc().getType(), "the operand",
                             getType(), "the result")))
    return failure();
  Type from = getElementTypeOrSelf(getSrc().getType());
  Type to = getElementTypeOrSelf(getType());
  if (getUnsignedSrc() && !isa<IntegerType>(from))
    return emitOpError()
           << "'unsigned_src' applies to integer sources only, not " << from;
  if (getUnsignedDst() &&
      (!isa<FloatType>(from) || !isa<IntegerType>(to) || to.isInteger(1)))
    return emitOpError() << "'unsigned_dst' applies to float-to-integer casts "
                            "only, not "
                         << from << " to " << to;
  if (getRtz() && (!isa<FloatType>(from) || !isa<FloatType>(to) ||
                   to.getIntOrFloatBitWidth() >= from.getIntOrFloatBitWidth()))
    return emitOpError() << "'rtz' (round toward zero) applies to casts to a "
                            "narrower float only, not "
                         << from << " to " << to;
  if ((isFloat8Type(from) && !isa<FloatType>(to)) ||
      (isFloat8Type(to) && !isa<FloatType>(from)))
    return emitOpError() << "converts " << from << " to " << to
                         << ": 8-bit floats convert to and from floats only";
  // The chips round to an 8-bit float to nearest even only; truncating an
  // f16 keeps f8E5M2's byte, and no sequence as short exists for f8E4M3FN.
  if (getRtz() && isa<Float8E4M3FNType>(to))
    return emitOpError() << "'rtz' (round toward zero) to f8E4M3FN is not "
                            "supported; only f8E5M2 has it";
  return success();
}

//===----------------------------------------------------------------------===//
// Bit casts, pointer casts and external functions
//===----------------------------------------------------------------------===//

/// Bits of a scalar or pointer element (pointers are 64-bit addresses).
static int64_t elementBits(Type type) {
  type = getElementTypeOrSelf(type);
  return isa<PtrType>(type) ? 64 : type.getIntOrFloatBitWidth();
}

LogicalResult BitcastOp::verify() {
  Type from = getSrc().getType(), to = getType();
  if (failed(verifySameShape(*this, from, "the operand", to, "the result")))
    return failure();
  Type fromElement = getElementTypeOrSelf(from);
  Type toElement = getElementTypeOrSelf(to);
  if (isa<PtrType>(fromElement) != isa<PtrType>(toElement))
    return emitOpError() << "cannot bitcast between " << fromElement << " and "
                         << toElement
                         << "; use tile.int_to_ptr or tile.ptr_to_int";
  if (elementBits(from) != elementBits(to))
    return emitOpError() << "cannot bitcast " << fromElement << " ("
                         << elementBits(from) << " bits) to " << toElement
                         << " (" << elementBits(to) << " bits)";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult IntToPtrOp::verify() {
  return verifySameShape(*this, getSrc().getType(), "the operand", getType(),
                         "the result");
}

LogicalResult PtrToIntOp::verify() {
  return verifySameShape(*this, getSrc().getType(), "the operand", getType(),
                         "the result");
}

LogicalResult ExternElementwiseOp::verify() {
  StringRef symbol = getSymbol();
  auto isIdentifierChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  if (symbol.empty() || llvm::isDigit(symbol.front()) ||
      !llvm::all_of(symbol, isIdentifierChar))
    return emitOpError() << "symbol '" << symbol
                         << "' is not a function name (letters, digits, _)";
  for (Value arg : getArgs())
    if (failed(verifySameShape(*this, arg.getType(), "an argument", getType(),
                               "the result")))
      return failure();
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// PrintOp
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError() << "needs one is_signed flag per operand: "
                         << getArgs().size() << " operands, "
                         << getIsSigned().size() << " flags";
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp, HistogramOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto index = cast<BlockType>(getIndex().getType());
  auto result = cast<BlockType>(getType());
  unsigned axis = getAxis();
  if (index.getRank() != src.getRank())
    return emitOpError() << "index must have the source's rank "
                         << src.getRank() << ", not " << index.getRank();
  if (axis >= src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-"
                         << src.getRank() << " block";
  for (unsigned d = 0; d < src.getRank(); ++d)
    if (d != axis && index.getShape()[d] != src.getShape()[d])
      return emitOpError() << "index is " << formatShape(index.getShape())
                           << " but the source is "
                           << formatShape(src.getShape())
                           << ": they may differ only along axis " << axis;
  if (result.getShape() != index.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError() << "result must be a " << formatShape(index.getShape())
                         << " block of " << src.getElementType();
  return success();
}

LogicalResult HistogramOp::verify() {
  auto src = cast<BlockType>(getSrc().getType());
  auto result = cast<BlockType>(getType());
  if (src.getRank() != 1 || !src.getElementType().isInteger(32))
    return emitOpError() << "takes a rank-1 block of i32, not " << src;
  if (result.getRank() != 1 || !result.getElementType().isInteger(32))
    return emitOpError() << "gives a rank-1 block of i32 counts, not "
                         << result;
  if (Value mask = getMask())
    if (cast<BlockType>(mask.getType()).getShape() != src.getShape())
      return emitOpError() << "mask must have the source's shape";
  return success();
}

//===----------------------------------------------------------------------===//
// MapElementwiseOp
//===----------------------------------------------------------------------===//

/// The shape rule of ops that run once per `pack` elements of their
/// operands (tile.map_elementwise, tile.inline_asm): at least one result,
/// operands and results of one shape (scalars, with `pack` 1).
static LogicalResult verifyPackedShapes(Operation *op, ValueRange args,
                                        ValueRange results, unsigned pack) {
  if (results.empty())
    return op->emitOpError() << "needs at least one result";
  std::optional<ArrayRef<int64_t>> shape;
  for (Value value : llvm::concat<Value>(args, results)) {
    auto block = dyn_cast<BlockType>(value.getType());
    ArrayRef<int64_t> extents = block ? block.getShape() : ArrayRef<int64_t>();
    if (shape && *shape != extents)
      return op->emitOpError()
             << "operands and results must have one shape, got "
             << formatShape(*shape) << " and " << formatShape(extents);
    shape = extents;
  }
  if (shape->empty() && pack != 1)
    return op->emitOpError() << "on scalars takes pack 1, not " << pack;
  return success();
}

LogicalResult MapElementwiseOp::verify() {
  if (getArgs().empty())
    return emitOpError() << "needs at least one operand";
  return verifyPackedShapes(*this, getArgs(), getResults(), getPack());
}

/// `pack` copies of each element type of `values`, value by value.
static SmallVector<Type> packedElementTypes(ValueRange values, unsigned pack) {
  SmallVector<Type> types;
  for (Value value : values)
    types.append(pack, getElementTypeOrSelf(value.getType()));
  return types;
}

static void describeTypes(InFlightDiagnostic &diag, ArrayRef<Type> types) {
  diag << "(";
  llvm::interleaveComma(types, diag);
  diag << ")";
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Block &body = getBody().front();
  unsigned pack = getPack();
  SmallVector<Type> argTypes = packedElementTypes(getArgs(), pack);
  if (SmallVector<Type>(body.getArgumentTypes()) != argTypes) {
    InFlightDiagnostic diag = emitOpError()
                              << "region must take " << pack
                              << " scalar(s) of each operand's element type ";
    describeTypes(diag, argTypes);
    return diag;
  }
  SmallVector<Type> resultTypes = packedElementTypes(getResults(), pack);
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield ||
      SmallVector<Type>(yield.getValues().getTypes()) != resultTypes) {
    InFlightDiagnostic diag = emitOpError()
                              << "region must yield " << pack
                              << " scalar(s) of each result's element type ";
    describeTypes(diag, resultTypes);
    return diag;
  }
  // The lowering runs the region on the scalars of one thread, once per
  // group of elements: what needs the other threads, or happens once per
  // program, has no meaning there.
  WalkResult walk = getBody().walk([&](Operation *op) {
    auto isBlock = [](Type type) { return isa<BlockType>(type); };
    StringRef what;
    if (isa<StoreOp, AtomicRMWOp, AtomicCASOp>(op))
      what = "write memory";
    else if (isa<PrintOp>(op))
      what = "print";
    else if (isa<BarrierOp>(op))
      what = "synchronize threads";
    else if (llvm::any_of(op->getOperandTypes(), isBlock) ||
             llvm::any_of(op->getResultTypes(), isBlock))
      what = "compute on blocks";
    if (what.empty())
      return WalkResult::advance();
    op->emitOpError() << "is in a tile.map_elementwise region, which computes "
                         "on the scalars of one element and cannot "
                      << what;
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// InlineAsmOp
//===----------------------------------------------------------------------===//

LogicalResult InlineAsmOp::verify() {
  if (failed(verifyPackedShapes(*this, getArgs(), getResults(), getPack())))
    return failure();
  for (Value value : llvm::concat<Value>(getArgs(), getResults()))
    if (getElementTypeOrSelf(value).isInteger(1))
      return emitOpError() << "takes and gives numbers, not i1";
  return success();
}

void InlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}
