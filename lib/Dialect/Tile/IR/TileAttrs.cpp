//===- TileAttrs.cpp - tile attributes: distributed layouts ---------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

LinearLayout mlir::tile::getLinearLayout(BlockType type) {
  auto layout = cast<DistributedLayoutAttrInterface>(type.getEncoding());
  return layout.toLinearLayout(type.getShape());
}

static SmallVector<int64_t> paddedShape(ArrayRef<int64_t> shape) {
  return llvm::map_to_vector(shape, paddedExtent);
}

static LinearLayout::Coord unitCoord(unsigned rank, unsigned dim,
                                     int64_t value) {
  LinearLayout::Coord coord(rank, 0);
  coord[dim] = value;
  return coord;
}

LogicalResult
mlir::tile::verifyLayoutForShape(function_ref<InFlightDiagnostic()> emitError,
                                 Attribute encoding, ArrayRef<int64_t> shape) {
  auto layout = dyn_cast<DistributedLayoutAttrInterface>(encoding);
  if (!layout)
    return emitError() << "block encoding must be a distributed layout "
                          "(#tile.blocked, #tile.slice, #tile.linear), not "
                       << encoding;
  if (layout.getRank() != shape.size())
    return emitError() << "layout " << encoding << " is for blocks of rank "
                       << layout.getRank() << ", not " << shape.size();
  auto linear = dyn_cast<LinearLayoutAttr>(encoding);
  if (!linear)
    return success();
  SmallVector<int64_t> padded = paddedShape(shape);
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp}) {
    ArrayRef<int64_t> flat = linear.getFlatBases(dim);
    for (size_t i = 0; i < flat.size(); ++i)
      if (flat[i] < 0 || flat[i] >= padded[i % shape.size()])
        return emitError() << "#tile.linear basis coordinate " << flat[i]
                           << " in dimension " << i % shape.size()
                           << " is outside the padded block "
                           << formatShape(padded);
  }
  if (!linear.toLinearLayout(shape).isSurjective())
    return emitError() << "#tile.linear layout does not reach every element "
                          "of the padded block "
                       << formatShape(padded);
  return success();
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

static unsigned product(ArrayRef<unsigned> values) {
  unsigned result = 1;
  for (unsigned value : values)
    result *= value;
  return result;
}

LogicalResult BlockedLayoutAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "#tile.blocked needs rank 1 or more";
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank ||
      order.size() != rank)
    return emitError() << "#tile.blocked size_per_thread, threads_per_warp, "
                          "warps and order must have one entry per dimension";
  auto checkPowers = [&](ArrayRef<unsigned> values, StringRef name,
                         unsigned limit) -> LogicalResult {
    for (unsigned value : values)
      if (value == 0 || !llvm::isPowerOf2_32(value) || value > limit)
        return emitError() << "#tile.blocked " << name
                           << " entries must be powers of two from 1 to "
                           << limit << ", not " << value;
    return success();
  };
  if (failed(checkPowers(sizePerThread, "size_per_thread", 1024)) ||
      failed(checkPowers(threadsPerWarp, "threads_per_warp", 32)) ||
      failed(checkPowers(warpsPerCTA, "warps", 32)))
    return failure();
  if (product(threadsPerWarp) != kThreadsPerWarp)
    return emitError() << "#tile.blocked threads_per_warp must multiply to "
                       << kThreadsPerWarp << ", not "
                       << product(threadsPerWarp);
  if (product(warpsPerCTA) > 32)
    return emitError() << "#tile.blocked warps must multiply to at most 32, "
                          "not "
                       << product(warpsPerCTA);
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "#tile.blocked order must be a permutation of "
                            "the dimensions 0 to "
                         << rank - 1;
    seen[dim] = true;
  }
  return success();
}

unsigned BlockedLayoutAttr::getRank() const {
  return getSizePerThread().size();
}

unsigned BlockedLayoutAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}

LinearLayout BlockedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  unsigned rank = getRank();
  SmallVector<int64_t> padded = paddedShape(shape);
  LinearLayout layout(padded);
  // Bases of `dim` along dimension d: `count` of them, the first at
  // coordinate `stride`. Past the padded extent, registers are dropped and
  // lanes and warps replicate (a zero basis).
  auto addBases = [&](HWDim dim, unsigned d, int64_t count, int64_t stride) {
    for (int64_t step = 1; step < count; step *= 2) {
      int64_t coordinate = stride * step;
      if (coordinate < padded[d])
        layout.addBasis(dim, unitCoord(rank, d, coordinate));
      else if (dim != HWDim::Register)
        layout.addBasis(dim, LinearLayout::Coord(rank, 0));
    }
  };
  ArrayRef<unsigned> order = getOrder();
  for (unsigned d : order)
    addBases(HWDim::Register, d, getSizePerThread()[d], 1);
  for (unsigned d : order)
    addBases(HWDim::Lane, d, getThreadsPerWarp()[d], getSizePerThread()[d]);
  for (unsigned d : order)
    addBases(HWDim::Warp, d, getWarpsPerCTA()[d],
             int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d]);
  // Repetitions of the whole pattern, fastest dimension first.
  for (unsigned d : order) {
    int64_t tile = int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d] *
                   getWarpsPerCTA()[d];
    for (int64_t coordinate = tile; coordinate < padded[d]; coordinate *= 2)
      layout.addBasis(HWDim::Register, unitCoord(rank, d, coordinate));
  }
  return layout;
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, DistributedLayoutAttrInterface parent) {
  if (!parent)
    return emitError() << "#tile.slice needs a distributed parent layout";
  if (parent.getRank() < 2)
    return emitError() << "#tile.slice parent must have rank 2 or more, not "
                       << parent.getRank();
  if (dim >= parent.getRank())
    return emitError() << "#tile.slice dim " << dim
                       << " is not a dimension of its rank-" << parent.getRank()
                       << " parent";
  return success();
}

unsigned SliceLayoutAttr::getRank() const { return getParent().getRank() - 1; }

unsigned SliceLayoutAttr::getNumWarps() const {
  return getParent().getNumWarps();
}

LinearLayout SliceLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // The parent over the block with the sliced dimension of extent 1: its
  // registers along that dimension are gone and its lanes and warps there
  // replicate; then the dimension itself goes.
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return getParent().toLinearLayout(parentShape).dropDim(getDim());
}

//===----------------------------------------------------------------------===//
// LinearLayoutAttr
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> LinearLayoutAttr::getFlatBases(HWDim dim) const {
  switch (dim) {
  case HWDim::Register:
    return getRegisterBases();
  case HWDim::Lane:
    return getLaneBases();
  case HWDim::Warp:
    return getWarpBases();
  }
  llvm_unreachable("unknown hardware dimension");
}

LinearLayoutAttr LinearLayoutAttr::get(MLIRContext *context,
                                       const LinearLayout &layout) {
  auto flat = [&](HWDim dim) {
    SmallVector<int64_t> values;
    for (const LinearLayout::Coord &basis : layout.getBases(dim))
      llvm::append_range(values, basis);
    return values;
  };
  return get(context, layout.getRank(), flat(HWDim::Register),
             flat(HWDim::Lane), flat(HWDim::Warp));
}

LogicalResult
LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned dims, ArrayRef<int64_t> registerBases,
                         ArrayRef<int64_t> laneBases,
                         ArrayRef<int64_t> warpBases) {
  if (dims == 0)
    return emitError() << "#tile.linear needs rank 1 or more";
  for (ArrayRef<int64_t> flat : {registerBases, laneBases, warpBases})
    if (flat.size() % dims != 0)
      return emitError() << "#tile.linear bases must each have " << dims
                         << " coordinates";
  if (laneBases.size() / dims != 5)
    return emitError() << "#tile.linear needs 5 lane bases (32 lanes), not "
                       << laneBases.size() / dims;
  if (warpBases.size() / dims > 5)
    return emitError() << "#tile.linear has at most 5 warp bases (32 warps)";
  if (registerBases.size() / dims > 16)
    return emitError() << "#tile.linear has at most 16 register bases";
  return success();
}

unsigned LinearLayoutAttr::getRank() const { return getDims(); }

unsigned LinearLayoutAttr::getNumWarps() const {
  return 1u << (getWarpBases().size() / getRank());
}

LinearLayout LinearLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  LinearLayout layout(paddedShape(shape));
  unsigned rank = getRank();
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp}) {
    ArrayRef<int64_t> flat = getFlatBases(dim);
    for (size_t i = 0; i + rank <= flat.size(); i += rank)
      layout.addBasis(dim, LinearLayout::Coord(flat.slice(i, rank)));
  }
  return layout;
}

/// `[[c, ...], ...]`: a list of bases of `rank` coordinates, appended to
/// `flat`; `rank` is taken from the first basis when it is still 0.
static ParseResult parseBases(AsmParser &parser, unsigned &rank,
                              SmallVectorImpl<int64_t> &flat) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SmallVector<int64_t> basis;
        SMLoc loc = parser.getCurrentLocation();
        if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                           [&]() -> ParseResult {
                                             int64_t value;
                                             if (parser.parseInteger(value))
                                               return failure();
                                             basis.push_back(value);
                                             return success();
                                           }))
          return failure();
        if (rank == 0)
          rank = basis.size();
        if (basis.size() != rank || rank == 0)
          return parser.emitError(loc) << "#tile.linear bases must all have "
                                       << rank << " coordinates";
        llvm::append_range(flat, basis);
        return success();
      });
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  unsigned rank = 0;
  SmallVector<int64_t> registers, lanes, warps;
  if (parser.parseLess() || parser.parseKeyword("register") ||
      parser.parseEqual() || parseBases(parser, rank, registers) ||
      parser.parseComma() || parser.parseKeyword("lane") ||
      parser.parseEqual() || parseBases(parser, rank, lanes) ||
      parser.parseComma() || parser.parseKeyword("warp") ||
      parser.parseEqual() || parseBases(parser, rank, warps) ||
      parser.parseGreater())
    return {};
  if (rank == 0) {
    parser.emitError(parser.getCurrentLocation())
        << "#tile.linear needs at least one basis";
    return {};
  }
  return parser.getChecked<LinearLayoutAttr>(parser.getContext(), rank,
                                             registers, lanes, warps);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  unsigned rank = getRank();
  auto printBases = [&](ArrayRef<int64_t> flat) {
    printer << "[";
    for (size_t i = 0; i < flat.size(); i += rank) {
      printer << (i ? ", [" : "[");
      llvm::interleaveComma(flat.slice(i, rank), printer);
      printer << "]";
    }
    printer << "]";
  };
  printer << "<register = ";
  printBases(getRegisterBases());
  printer << ", lane = ";
  printBases(getLaneBases());
  printer << ", warp = ";
  printBases(getWarpBases());
  printer << ">";
}
