//===- TileDialect.cpp - tile dialect, types and attributes ---------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

namespace {
/// Every tile op is value-semantic or a plain memory access, so device
/// functions can be inlined into kernels without restriction.
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

/// Layouts print as aliases (`#blocked`, `#slice1`, ...) declared once at the
/// top of a module, as Triton's do: block types stay readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr))
      os << "blocked";
    else if (isa<SliceLayoutAttr>(attr))
      os << "slice";
    else if (isa<LinearLayoutAttr>(attr))
      os << "linear";
    else if (isa<MmaLayoutAttr>(attr))
      os << "mma";
    else
      return AliasResult::NoAlias;
    return AliasResult::OverridableAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addInterfaces<TileInlinerInterface, TileOpAsmInterface>();
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (isa<BlockType>(type)) {
    auto elements = dyn_cast<ElementsAttr>(value);
    if (!elements || elements.getType() != type)
      return nullptr;
    return ConstantOp::create(builder, loc, type, elements);
  }
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool mlir::tile::isTileScalarType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isFloat8Type(type);
}

bool mlir::tile::isFloat8Type(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool mlir::tile::isRowStatisticElement(Type type) {
  return type.isF32() || type.isInteger(32);
}

bool mlir::tile::isRowStatisticBlock(BlockType type) {
  return type.getRank() == 1 &&
         type.getShape()[0] >= kMinRowStatisticElements &&
         isRowStatisticElement(type.getElementType());
}

Type mlir::tile::getLoadedType(Type ptrType) {
  if (auto ptr = dyn_cast<PtrType>(ptrType))
    return ptr.getPointeeType();
  if (auto block = dyn_cast<BlockType>(ptrType))
    if (auto ptr = dyn_cast<PtrType>(block.getElementType()))
      return block.withElementType(ptr.getPointeeType());
  return nullptr;
}

Type mlir::tile::getMaskType(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto block = dyn_cast<BlockType>(type))
    return block.withElementType(i1);
  return i1;
}

std::string mlir::tile::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

LogicalResult mlir::tile::verifyKernelInterface(FunctionOpInterface kernel) {
  StringRef name = kernel.getName();
  bool identifier =
      !name.empty() && !llvm::isDigit(name.front()) &&
      llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (!identifier) {
    InFlightDiagnostic diag = kernel.emitError() << "kernel name '";
    std::string escaped;
    llvm::raw_string_ostream os(escaped);
    os.write_escaped(name);
    return diag << escaped
                << "' is not an identifier: a kernel is named with letters, "
                   "digits and '_', not starting with a digit (it becomes "
                   "the PTX entry name)";
  }
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    // 8-bit floats live in memory: no launcher passes one by value.
    if ((isTileScalarType(type) && !isFloat8Type(type)) ||
        isa<PtrType, TensorMapType>(type))
      continue;
    Location loc = kernel.isExternal()
                       ? kernel.getLoc()
                       : kernel.getFunctionBody().getArgument(index).getLoc();
    return emitError(loc) << "kernel '" << name << "' argument " << index
                          << " has type " << type
                          << "; kernel arguments are scalars (i1, i8, i16, "
                             "i32, i64, f16, bf16, f32, f64), !tile.ptr or "
                             "!tile.tensor_map";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes on operations and arguments
//===----------------------------------------------------------------------===//

/// An attribute as a diagnostic names it: an i32 without its type.
static std::string formatValue(Attribute value) {
  if (auto integer = dyn_cast<IntegerAttr>(value))
    if (integer.getType().isSignlessInteger(32))
      return std::to_string(integer.getInt());
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

namespace {
/// The `tile.*` attributes on operations: on kernels, the warps a kernel
/// runs with (set by tile-assign-layouts, or by hand); on the gpu.func the
/// lowering makes, its launch facts; on loops, their schedule hints.
struct OperationAttribute {
  StringRef name;
  int64_t min, max;
  bool powerOfTwo;
  bool onForLoop = false;
};
constexpr OperationAttribute kOperationAttributes[] = {
    {kNumWarpsAttrName, 1, 32, true},
    {kThreadsAttrName, 32, 1024, true},
    {kSharedBytesAttrName, 0, int64_t(1) << 31, false},
    {kNumStagesAttrName, 1, 16, false, /*onForLoop=*/true},
    {kLoopUnrollFactorAttrName, 1, 64, false, /*onForLoop=*/true},
};
} // namespace

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  // The lowering's record of tensor map parameters (TileDialect.h).
  if (name == kTensorMapArgsAttrName) {
    if (!isa<DenseI32ArrayAttr>(attribute.getValue()))
      return op->emitError()
             << "'" << name << "' must be an array<i32> of argument numbers";
    return success();
  }
  if (name == kTensorMapsAttrName) {
    auto maps = dyn_cast<ArrayAttr>(attribute.getValue());
    if (!maps || !llvm::all_of(maps, [](Attribute map) {
          auto dict = dyn_cast<DictionaryAttr>(map);
          return dict && dict.get("arg") && dict.get("box") &&
                 dict.get("swizzle") && dict.get("element_bytes");
        }))
      return op->emitError() << "'" << name
                             << "' must be an array of {arg, box, swizzle, "
                                "element_bytes} dictionaries";
    return success();
  }
  if (name == kTensorCoresAttrName) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  const OperationAttribute *known =
      llvm::find_if(kOperationAttributes, [&](const OperationAttribute &a) {
        return a.name == name;
      });
  if (known == std::end(kOperationAttributes)) {
    InFlightDiagnostic diag = op->emitError()
                              << "unknown attribute '" << name
                              << "' of the tile dialect; the tile attributes "
                                 "on operations are ";
    llvm::interleaveComma(kOperationAttributes, diag,
                          [&](const OperationAttribute &a) { diag << a.name; });
    return diag;
  }
  auto value = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!value || !value.getType().isSignlessInteger(32) ||
      value.getInt() < known->min || value.getInt() > known->max ||
      (known->powerOfTwo && !llvm::isPowerOf2_64(value.getInt())))
    return op->emitError() << "'" << name << "' must be an i32 "
                           << (known->powerOfTwo ? "power of two " : "")
                           << "from " << known->min << " to " << known->max
                           << ", not " << formatValue(attribute.getValue());
  if (known->onForLoop && !isa<scf::ForOp>(op))
    return op->emitError() << "'" << name << "' belongs on an scf.for, not on '"
                           << op->getName() << "'";
  return success();
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  Location loc = op->getLoc();
  if (regionIndex < op->getNumRegions() &&
      argIndex < op->getRegion(regionIndex).getNumArguments())
    loc = op->getRegion(regionIndex).getArgument(argIndex).getLoc();
  if (name == kTensorMapRecipeAttrName) {
    std::string error;
    FailureOr<TensorMapRecipe> recipe =
        TensorMapRecipe::fromAttr(attribute.getValue(), error);
    if (failed(recipe))
      return emitError(loc)
             << "'" << name << "' of argument " << argIndex << ": " << error;
    // The launcher reads the recipe's arguments from the launch's: each
    // must be one of the kernel's others.
    if (regionIndex < op->getNumRegions()) {
      int64_t count = op->getRegion(regionIndex).getNumArguments();
      auto outside = [&](int64_t arg) {
        return arg < 0 || arg >= count || arg == int64_t(argIndex);
      };
      auto productOutside = [&](const LaunchProduct &product) {
        return llvm::any_of(product.args, outside);
      };
      if (outside(recipe->base) ||
          llvm::any_of(recipe->shape, productOutside) ||
          llvm::any_of(recipe->strides, productOutside))
        return emitError(loc) << "'" << name << "' of argument " << argIndex
                              << " names an argument that is not one of the "
                              << count - 1 << " others";
    }
    return success();
  }
  if (name != "tile.divisibility")
    return emitError(loc) << "unknown argument attribute '" << name
                          << "' of the tile dialect; the tile attributes on "
                             "arguments are tile.divisibility and "
                          << kTensorMapRecipeAttrName;
  // The caller's promise that the argument (an integer, or a pointer's
  // address in bytes) is a multiple of this; the axis analysis tracks
  // powers of two.
  auto value = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!value || !value.getType().isSignlessInteger(32) || value.getInt() < 1 ||
      value.getInt() > kMaxDivisibility || !llvm::isPowerOf2_64(value.getInt()))
    return emitError(loc) << "'tile.divisibility' of argument " << argIndex
                          << " must be an i32 power of two from 1 to 2^30 "
                             "(as in `tile.divisibility = 16 : i32`), not "
                          << formatValue(attribute.getValue());
  return success();
}

//===----------------------------------------------------------------------===//
// TensorMapRecipe
//===----------------------------------------------------------------------===//

// {name = "a_ptr.tensor_map", base = 0, shape = [[scale, array<i64: args>],
// ...], strides = [...]}: each product an array of its scale and arguments.
DictionaryAttr TensorMapRecipe::toAttr(MLIRContext *context) const {
  Builder builder(context);
  auto products = [&](ArrayRef<LaunchProduct> values) {
    return builder.getArrayAttr(
        llvm::map_to_vector(values, [&](const LaunchProduct &p) -> Attribute {
          return builder.getArrayAttr({builder.getI64IntegerAttr(p.scale),
                                       builder.getDenseI64ArrayAttr(p.args)});
        }));
  };
  return builder.getDictionaryAttr(
      {builder.getNamedAttr("name", builder.getStringAttr(name)),
       builder.getNamedAttr("base", builder.getI64IntegerAttr(base)),
       builder.getNamedAttr("shape", products(shape)),
       builder.getNamedAttr("strides", products(strides))});
}

FailureOr<TensorMapRecipe> TensorMapRecipe::fromAttr(Attribute attr,
                                                     std::string &error) {
  std::string form = "must be {name = \"...\", base = i64, shape = [...], "
                     "strides = [...]}, each extent or stride [i64 scale, "
                     "array<i64: argument numbers>] with at most " +
                     std::to_string(kMaxLaunchProductFactors) + " arguments";
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto name = dict ? dict.getAs<StringAttr>("name") : StringAttr();
  auto base = dict ? dict.getAs<IntegerAttr>("base") : IntegerAttr();
  auto shape = dict ? dict.getAs<ArrayAttr>("shape") : ArrayAttr();
  auto strides = dict ? dict.getAs<ArrayAttr>("strides") : ArrayAttr();
  if (!name || !base || !shape || !strides) {
    error = form;
    return failure();
  }
  TensorMapRecipe recipe;
  recipe.name = name.str();
  recipe.base = base.getInt();
  auto products = [&](ArrayAttr array, SmallVector<LaunchProduct> &out) {
    for (Attribute item : array) {
      auto pair = dyn_cast<ArrayAttr>(item);
      if (!pair || pair.size() != 2 || !isa<IntegerAttr>(pair[0]) ||
          !isa<DenseI64ArrayAttr>(pair[1]))
        return false;
      ArrayRef<int64_t> args = cast<DenseI64ArrayAttr>(pair[1]).asArrayRef();
      if (args.size() > kMaxLaunchProductFactors ||
          llvm::any_of(args, [](int64_t arg) { return arg < 0; }))
        return false;
      out.push_back(
          {cast<IntegerAttr>(pair[0]).getInt(), llvm::to_vector(args)});
    }
    return true;
  };
  if (!products(shape, recipe.shape) || !products(strides, recipe.strides)) {
    error = form;
    return failure();
  }
  if (recipe.shape.empty() ||
      int64_t(recipe.shape.size()) > kMaxTensorMapRank ||
      recipe.strides.size() != recipe.shape.size()) {
    error = "needs 1 to " + std::to_string(kMaxTensorMapRank) +
            " extents and as many strides";
    return failure();
  }
  const LaunchProduct &last = recipe.strides.back();
  if (last.scale != 1 || !last.args.empty()) {
    error = "needs a last stride of 1 (the innermost dimension contiguous)";
    return failure();
  }
  return recipe;
}

//===----------------------------------------------------------------------===//
// PtrType
//===----------------------------------------------------------------------===//

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointeeType) {
  if (!isTileScalarType(pointeeType))
    return emitError() << "pointee type must be a scalar (" << kTileScalarTypes
                       << "), not " << pointeeType;
  return success();
}

Type PtrType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type pointeeType;
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalGreater())) {
    parser.emitError(loc, "!tile.ptr needs a pointee type, as in "
                          "!tile.ptr<f32>");
    return {};
  }
  // A failure inside the pointee has been reported where it happened.
  if (parser.parseType(pointeeType) || parser.parseGreater())
    return {};
  return parser.getChecked<PtrType>(loc, parser.getContext(), pointeeType);
}

void PtrType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType() << ">";
}

//===----------------------------------------------------------------------===//
// BlockType
//===----------------------------------------------------------------------===//

LogicalResult BlockType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType,
                                Attribute encoding) {
  if (shape.empty())
    return emitError() << "a block needs rank 1 or more; use a scalar type "
                          "for a single value";
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (extent <= 0)
      return emitError() << "block dimension " << dim << " has extent "
                         << (ShapedType::isDynamic(extent)
                                 ? std::string("?")
                                 : std::to_string(extent))
                         << "; every extent must be a positive constant";
  int64_t numElements = 1;
  for (int64_t extent : shape) {
    if (numElements > kMaxBlockElements / extent)
      return emitError() << "block " << formatShape(shape)
                         << " has more than 2^31 elements";
    numElements *= extent;
  }
  if (!isTileScalarType(elementType) && !isa<PtrType>(elementType))
    return emitError() << "block element type must be a scalar ("
                       << kTileScalarTypes << ") or !tile.ptr, not "
                       << elementType;
  if (encoding)
    return verifyLayoutForShape(emitError, encoding, shape);
  return success();
}

Type BlockType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(encoding))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BlockType>(loc, parser.getContext(), shape,
                                      elementType, encoding);
}

void BlockType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t extent : getShape())
    printer << extent << "x";
  printer << getElementType();
  if (getEncoding())
    printer << ", " << getEncoding();
  printer << ">";
}

LogicalResult RingType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t slots, BlockType block) {
  if (slots < 1)
    return emitError() << "a ring needs at least one slot, not " << slots;
  if (block.getRank() > 2 || block.getEncoding())
    return emitError() << "a ring's block must be rank 1 or 2 with no encoding";
  Type element = block.getElementType();
  // Row statistics (isRowStatisticBlock).
  if (block.getRank() == 1) {
    if (!isRowStatisticElement(element))
      return emitError() << "a rank-1 ring holds row statistics (f32 or i32), "
                            "not "
                         << element;
    if (block.getShape()[0] < kMinRowStatisticElements)
      return emitError() << "a rank-1 ring's rows hold at least 8 elements, "
                            "not "
                         << block.getShape()[0];
    return success();
  }
  // wgmma's operand types: f16, bf16, f32 (read as tf32), 8-bit floats, i8.
  if (!element.isF16() && !element.isBF16() && !element.isF32() &&
      !isFloat8Type(element) && !element.isInteger(8))
    return emitError() << "a ring holds tensor-core operands (f16, bf16, f32, "
                          "f8E4M3FN, f8E5M2 or i8), not "
                       << element;
  return success();
}

int64_t BlockType::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : getShape())
    count *= extent;
  return count;
}

BlockType BlockType::withElementType(Type elementType) const {
  return BlockType::get(getContext(), getShape(), elementType, getEncoding());
}

BlockType BlockType::withShape(ArrayRef<int64_t> shape) const {
  return BlockType::get(getContext(), shape, getElementType(), getEncoding());
}

BlockType BlockType::withEncoding(Attribute encoding) const {
  return BlockType::get(getContext(), getShape(), getElementType(), encoding);
}

ShapedType BlockType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                Type elementType) const {
  return BlockType::get(getContext(), shape ? *shape : getShape(), elementType,
                        getEncoding());
}

// Blocks always have a static rank of one or more.
bool BlockType::hasRank() const { return true; }
