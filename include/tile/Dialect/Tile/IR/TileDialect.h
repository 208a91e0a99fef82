//===- TileDialect.h - tile dialect, types and attributes -------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tile/Dialect/Tile/IR/LinearLayout.h"

#include "tile/Dialect/Tile/IR/TileAttrInterfaces.h.inc"
#include "tile/Dialect/Tile/IR/TileDialect.h.inc"
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"
#include "tile/Dialect/Tile/IR/TileLimits.h"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

namespace mlir::tile {

/// Per-loop schedule hints on an `scf.for` (Triton's
/// `tl.range(num_stages=, loop_unroll_factor=)`): the loop's pipelining depth,
/// overriding the kernel's num_stages, and how many copies of its body one
/// iteration runs.
inline constexpr llvm::StringLiteral kNumStagesAttrName = "tile.num_stages";
inline constexpr llvm::StringLiteral kLoopUnrollFactorAttrName =
    "tile.loop_unroll_factor";

/// The warps a kernel runs with: on the kernel (set by tile-assign-layouts,
/// or by hand) and on the gpu.func the lowering makes. That gpu.func's
/// launch facts besides: its threads and bytes of shared memory.
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tile.num_warps";
inline constexpr llvm::StringLiteral kThreadsAttrName = "tile.threads";
inline constexpr llvm::StringLiteral kSharedBytesAttrName = "tile.shared_bytes";

/// On a lowered kernel (gpu.func, then llvm.func): its `!tile.tensor_map`
/// parameters (an array of argument numbers), which become 128-byte
/// by-value parameters; and the box each is read in by TMA (an array of
/// {arg, box, swizzle, element_bytes}), which the launch facts report.
inline constexpr llvm::StringLiteral kTensorMapArgsAttrName =
    "tile.tensor_map_args";
inline constexpr llvm::StringLiteral kTensorMapsAttrName = "tile.tensor_maps";

/// On a lowered kernel (gpu.func): present where it multiplies on the tensor
/// cores (a `tile.dot` of an MMA layout, a `tile.ring_dot`), which
/// the compile's occupancy search leaves alone (Occupancy.h).
inline constexpr llvm::StringLiteral kTensorCoresAttrName = "tile.tensor_cores";

/// On a kernel's `!tile.tensor_map` argument that tile-launch-tensor-maps
/// made from a `tile.make_tensor_map`: how the launcher makes the map from
/// the kernel's other arguments (TensorMapRecipe).
inline constexpr llvm::StringLiteral kTensorMapRecipeAttrName =
    "tile.tensor_map_recipe";

/// The most dimensions a TMA tensor map (and a box of it) has.
inline constexpr int64_t kMaxTensorMapRank = 5;

/// The most kernel arguments one LaunchProduct multiplies (the C launcher's
/// RECIPE_MAX_FACTORS, in python/src/launcher.c, is the same number).
inline constexpr size_t kMaxLaunchProductFactors = 8;

/// `scale` times the product of the integer kernel arguments `args` (by
/// number): a value the launcher computes from a launch's arguments.
struct LaunchProduct {
  int64_t scale = 1;
  SmallVector<int64_t> args;
};

/// A tensor map the launcher encodes from the kernel's other arguments: the
/// tensor at pointer argument `base`, with `shape` and `strides` (in
/// elements, outermost first, the last 1). `name` names the parameter in
/// the launch facts.
struct TensorMapRecipe {
  std::string name;
  int64_t base = 0;
  SmallVector<LaunchProduct> shape, strides;

  DictionaryAttr toAttr(MLIRContext *context) const;
  /// The recipe of `attr`, or failure with what is wrong in `error`.
  static FailureOr<TensorMapRecipe> fromAttr(Attribute attr,
                                             std::string &error);
};

/// Whether `type` may be an element of a block or a pointee: one of the
/// scalar types of kTileScalarTypes.
bool isTileScalarType(Type type);

/// The scalar types, as diagnostics list them. The two 8-bit floats (Triton's
/// float8e4nv and float8e5) are storage types: they are loaded, stored,
/// selected and cast, and other arithmetic takes them converted to f16 or f32.
inline constexpr llvm::StringLiteral kTileScalarTypes =
    "i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2";

/// Whether `type` is one of the 8-bit floats (f8E4M3FN, f8E5M2).
bool isFloat8Type(Type type);

/// Row statistics, what a rank-1 `!tile.ring` holds (attention backward's m
/// and Di): 32-bit elements (f32, i32), rows of at least
/// kMinRowStatisticElements (32 bytes, a slot's narrowest stored row).
inline constexpr int64_t kMinRowStatisticElements = 8;
bool isRowStatisticElement(Type type);
/// A rank-1 block of such elements and extent (of any encoding).
bool isRowStatisticBlock(BlockType type);

/// What a load through pointers of type `ptrType` yields: the pointee, or a
/// block of pointees of the same shape. Null for a non-pointer type.
Type getLoadedType(Type ptrType);

/// The mask type matching `type`: i1, or a block of i1 of the same shape.
Type getMaskType(Type type);

/// "16x32" for a shape, as diagnostics print it.
std::string formatShape(ArrayRef<int64_t> shape);

/// Checks what lowering a public func.func as a GPU kernel needs of its
/// interface: a name that is an identifier (PTX entry names and the C
/// launchers use it; LLVM aborts on others) and arguments that are tile
/// scalars or !tile.ptr (anything else would be expanded into several PTX
/// parameters the launch facts do not list). Emits an error and fails
/// otherwise.
LogicalResult verifyKernelInterface(FunctionOpInterface kernel);

/// The linear layout of a block whose encoding is a distributed layout.
LinearLayout getLinearLayout(BlockType type);

/// Whether wgmma can read the A operand `a` of a dot with accumulator
/// layout `acc` from registers: a 16-bit block in the accumulator layout of
/// the same warps (one warp column; instruction columns a multiple of 16
/// dividing K), whose registers are then A's fragments.
bool isWarpGroupRegisterOperand(BlockType a, MmaLayoutAttr acc);

/// Whether TMA can copy `block` (a load's or store's, whose dimension `i`
/// runs along the tensor map's dimension `mapDims[i]`) in the boxes the
/// lowering uses, the column blocks of its StagedMatrix: rank 2, elements of
/// 1 to 8 whole bytes, at most 256 rows along the map's outer dimension (a
/// box's limit), rows of whole column blocks (32 or 64 bytes, or a multiple
/// of 128).
bool fitsTensorMapBox(BlockType block, ArrayRef<int64_t> mapDims);

/// The identity of a reduction or scan of kind `kind` over scalars of type
/// `element`: 0 for sum (-0.0 for floats), the lowest (highest) value for
/// max (min) and umax (umin), NaN for maxnum/minnum (so a line of NaNs still
/// gives NaN); i1 max and umax are "or", min and umin "and". Null for
/// `custom`.
TypedAttr getCombineIdentity(CombineKind kind, Type element);

/// Checks that `encoding` is a distributed layout for blocks of `shape`.
LogicalResult verifyLayoutForShape(function_ref<InFlightDiagnostic()> emitError,
                                   Attribute encoding, ArrayRef<int64_t> shape);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
