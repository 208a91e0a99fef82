//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/Dialect/Arith/IR/ArithBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tile_Scalar : AnyTypeOf<[I1, I8, I16, I32, I64, F16, BF16, F32, F64,
                             F8E4M3FN, F8E5M2],
                            "scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, "
                            "f8E4M3FN or f8E5M2)">;
def Tile_Block : Type<CPred<"::llvm::isa<::mlir::tile::BlockType>($_self)">,
                      "block", "::mlir::Type">;
def Tile_Ptr : Type<CPred<"::llvm::isa<::mlir::tile::PtrType>($_self)">,
                    "pointer", "::mlir::Type">;

class Tile_BlockOf<string elementPred, string desc>
    : Type<And<[Tile_Block.predicate,
                CPred<"[](::mlir::Type e) { return " # elementPred # "; }("
                      "::llvm::cast<::mlir::tile::BlockType>($_self).getElementType())">]>,
           desc, "::mlir::Type">;

def Tile_IntBlock : Tile_BlockOf<"::llvm::isa<::mlir::IntegerType>(e)",
                                 "block of integers">;
// Float arithmetic takes f16, bf16, f32 and f64: the 8-bit floats are
// storage types (kTileScalarTypes), converted with tile.cast.
def Tile_FloatBlock : Tile_BlockOf<"::llvm::isa<::mlir::FloatType>(e) && "
                                   "!::mlir::tile::isFloat8Type(e)",
                                   "block of f16, bf16, f32 or f64">;
def Tile_BoolBlock : Tile_BlockOf<"e.isInteger(1)", "block of i1">;
def Tile_PtrBlock : Tile_BlockOf<"::llvm::isa<::mlir::tile::PtrType>(e)",
                                 "block of pointers">;
def Tile_ScalarBlock : Tile_BlockOf<"!::llvm::isa<::mlir::tile::PtrType>(e)",
                                    "block of scalars">;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrBlock], "pointer or block of pointers">;
def Tile_ScalarLike : AnyTypeOf<[Tile_Scalar, Tile_ScalarBlock]>;
def Tile_MaskLike : AnyTypeOf<[I1, Tile_BoolBlock], "i1 or block of i1">;
def Tile_IntLike : AnyTypeOf<[AnySignlessInteger, Tile_IntBlock], "integer or block of integers">;
def Tile_AxisAttr : ConfinedAttr<I32Attr, [IntNonNegative]>;

// Every block operand and result has one layout (or none): a block type's
// shape and element type are what MLIR's SameOperandsAndResultType compares,
// so this is the check that an op which maps elements one to one does not
// mix layouts.
def Tile_SameOperandsAndResultLayout
    : NativeOpTrait<"SameOperandsAndResultLayout"> {
  let cppNamespace = "::mlir::OpTrait";
}

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

class Tile_GridOp<string mnemonic, string what> : Tile_Op<mnemonic, [Pure]> {
  let summary = what # " along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_ProgramIdOp : Tile_GridOp<"program_id", "Index of this program instance"> {
  let description = [{
    The index of the running program instance along grid axis `axis`
    (0, 1 or 2), as Triton's `tl.program_id`.

    ```mlir
    %pid = tile.program_id 0 : i32
    ```
  }];
}

def Tile_NumProgramsOp : Tile_GridOp<"num_programs", "Number of program instances"> {
  let description = [{
    The number of program instances along grid axis `axis` (0, 1 or 2).

    ```mlir
    %n = tile.num_programs 1 : i32
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Block creation and shape manipulation
//===----------------------------------------------------------------------===//

def Tile_ArangeOp : Tile_Op<"arange", [Pure]> {
  let summary = "Consecutive integers as a rank-1 block";
  let description = [{
    The integers `start, start + 1, ..., end - 1` as a
    `!tile.block<(end - start)xi32>`. Unlike Triton, the length need not be
    a power of two.

    ```mlir
    %offs = tile.arange 0, 24 : !tile.block<24xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Tile_IntBlock:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_ConstantOp : Tile_Op<"constant", [ConstantLike, Pure]> {
  let summary = "Constant block";
  let description = [{
    A block whose elements are given by a dense attribute. A splat attribute
    makes a `full` block (every element the same).

    ```mlir
    %zeros = tile.constant dense<0.0> : !tile.block<16x32xf32>
    %steps = tile.constant dense<[0, 2, 4, 6]> : !tile.block<4xi32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tile_ScalarBlock:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"element type of the result is the operand type",
                   "result", "src",
                   "::llvm::cast<::mlir::tile::BlockType>($_self).getElementType()">]> {
  let summary = "Block with every element equal to a scalar";
  let description = [{
    ```mlir
    %n = tile.splat %size : i32 -> !tile.block<128xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_Scalar, Tile_Ptr]>:$src);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Insert a dimension of size one";
  let description = [{
    Inserts a dimension of extent 1 before dimension `axis` (`axis` may equal
    the rank, to append one), as NumPy's `expand_dims` and Python's
    `x[:, None]` indexing.

    ```mlir
    %col = tile.expand_dims %offs {axis = 1 : i32}
        : !tile.block<16xi32> -> !tile.block<16x1xi32>
    ```
  }];
  let arguments = (ins Tile_Block:$src, Tile_AxisAttr:$axis);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Stretch dimensions of size one";
  let description = [{
    Rank-preserving broadcast: every dimension of the operand is either equal
    to the result's or is 1 and stretches to the result's extent. Frontends
    insert `tile.expand_dims` first to align ranks (NumPy's rules:
    right-aligned, size-1 dimensions stretch).

    ```mlir
    %rows = tile.broadcast %col : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
    ```
  }];
  let arguments = (ins Tile_Block:$src);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "Reinterpret the shape, keeping row-major element order";
  let description = [{
    ```mlir
    %flat = tile.reshape %x : !tile.block<4x8xf32> -> !tile.block<32xf32>
    ```
  }];
  let arguments = (ins Tile_Block:$src);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "Permute the dimensions of a block";
  let description = [{
    Result dimension `i` is operand dimension `order[i]`. Without `order`
    the dimensions are reversed (a matrix transpose for rank 2). The
    transpose of a load used nowhere else canonicalizes to a load of the
    transposed pointers (and mask and `other`), which yields the transposed
    block itself: `desc.load(...).T` feeding a dot is then a load the
    pipeliner turns into async copies, with its layout chosen by the
    addresses' contiguous dimension.

    ```mlir
    %t = tile.trans %x : !tile.block<16x32xf32> -> !tile.block<32x16xf32>
    %p = tile.trans %y {order = array<i32: 1, 0, 2>}
        : !tile.block<2x3x4xf32> -> !tile.block<3x2x4xf32>
    ```
  }];
  let arguments = (ins Tile_Block:$src, OptionalAttr<DenseI32ArrayAttr>:$order);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The permutation, with the default (reversal) filled in.
    SmallVector<int32_t> getPermutation();
  }];
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move the elements of a block to another layout";
  let description = [{
    The same block, distributed over the threads by the result's layout
    instead of the operand's. The layout pass inserts it where a value's
    layout differs from the one a use needs (a strided store, say). Its cost
    depends on the two layouts: nothing when every thread already holds what
    it needs (the registers are renamed), warp shuffles when elements stay
    within their warp, and a round trip through shared memory otherwise.
    Converting an index function (an `arange`, a `splat` and the arithmetic
    on them) costs nothing: the lowering evaluates it in the new layout.

    ```mlir
    %t = tile.convert_layout %x
        : !tile.block<64x64xf32, #tile.blocked<size_per_thread = [1, 4],
                                               threads_per_warp = [2, 16],
                                               warps = [4, 1], order = [1, 0]>>
       -> !tile.block<64x64xf32, #tile.blocked<size_per_thread = [4, 1],
                                               threads_per_warp = [16, 2],
                                               warps = [1, 4], order = [0, 1]>>
    ```
  }];
  let arguments = (ins Tile_Block:$src);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure,
    TypesMatchWith<"result type is the pointer type", "ptr", "result", "$_self">]> {
  let summary = "Advance pointers by a number of elements";
  let description = [{
    `ptr + offset`, counted in elements of the pointee type. Both operands are
    scalars, or both are blocks of one shape.

    ```mlir
    %p = tile.addptr %base, %offs : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_MakeTensorMapOp : Tile_Op<"make_tensor_map", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "A TMA tensor map of a tensor the kernel describes";
  let description = [{
    The tensor map of the tensor at `base` with `shape` (i32 extents) and
    `strides` (i64, in elements), both outermost first, the last stride 1:
    what `tl.make_tensor_descriptor` and `tl.make_block_ptr` describe inside
    a kernel. Loads and stores name boxes of it (`tensor_map %map[coords]`)
    as they do of a host descriptor's map. `tile-launch-tensor-maps` turns
    it into a kernel parameter that the launcher encodes from the kernel's
    other parameters, or, where it cannot, drops the boxes (the loads keep
    their pointers).

    ```mlir
    %map = tile.make_tensor_map %base[%rows, %c64], [%c64_i64, %c1_i64]
        : !tile.ptr<f16>
    ```
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides);
  let results = (outs Tile_TensorMapType:$result);
  let assemblyFormat = [{
    $base `[` $shape `]` `,` `[` $strides `]` attr-dict `:` qualified(type($base))
  }];
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments,
    TypesMatchWith<"result holds the pointees", "ptr", "result",
                   "::mlir::tile::getLoadedType($_self)">,
    OptionalTypesMatchWith<"mask has the pointers' shape", "ptr", "mask",
                           "::mlir::tile::getMaskType($_self)">,
    OptionalTypesMatchWith<"other has the result's type", "ptr", "other",
                           "::mlir::tile::getLoadedType($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Load from global memory, optionally masked";
  let description = [{
    Loads the element behind each pointer. Where `mask` is false nothing is
    read and the result holds `other` (or an undefined value if there is no
    `other`). `mask` and `other` have the shape of `ptr`.

    Optional, as Triton's `tl.load`: a PTX cache operator `cache` (`"ca"`,
    `"cg"`, `"cv"`), or an L1 eviction priority `evict` (`"evict_first"`,
    `"evict_last"`), not both (PTX cannot combine them); `is_volatile`
    (`ld.volatile`, with neither) reads memory each time the program does.
    With `sem` (`acquire` or `relaxed`) and `scope`, each element is an
    atomic load of that order (Triton's `tl.atomic_load`: `ld.acquire.gpu`),
    taking no other hint; it is never merged, moved or vectorized.

    ```mlir
    %x = tile.load %ptrs mask %m other %zeros : !tile.block<128x!tile.ptr<f32>>
    %s = tile.load %p : !tile.ptr<f32>
    %c = tile.load %ptrs {cache = "cg"} : !tile.block<128x!tile.ptr<f32>>
    %f = tile.load %flag {sem = #tile<sem acquire>, scope = #tile<scope gpu>} : !tile.ptr<i32>
    ```

    With `tensor_map %map[coords]` the load also says which box of a tensor
    it reads: the block is the box of the tensor map `%map` at `coords` (one
    i32 per dimension of the tensor, outermost first), block dimension `i`
    running along the tensor's dimension `map_dims[i]` (in order when
    absent), and the mask is false exactly where the box leaves the tensor.
    The pointers stay the load's meaning; the lowering may copy the box with
    TMA instead where the block goes to shared memory (a ring of
    `tile-async-dot-operands`).

    ```mlir
    %k = tile.load %ptrs mask %inside tensor_map %map[%row, %c0]
        {map_dims = array<i64: 1, 0>} : !tile.block<64x128x!tile.ptr<f16>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_MaskLike>:$mask,
                       Optional<AnyType>:$other,
                       Optional<Tile_TensorMapType>:$tensor_map,
                       Variadic<I32>:$map_coords,
                       OptionalAttr<DenseI64ArrayAttr>:$map_dims,
                       OptionalAttr<StrAttr>:$cache,
                       OptionalAttr<StrAttr>:$evict, UnitAttr:$is_volatile,
                       OptionalAttr<Tile_MemSemanticAttr>:$sem,
                       OptionalAttr<Tile_MemScopeAttr>:$scope);
  let results = (outs AnyType:$result);
  // Custom directives: a `mask` or `other` keyword must be followed by an
  // operand (an optional group would silently accept the bare keyword).
  let assemblyFormat = [{
    $ptr `` custom<KeywordOperand>($mask, "\"mask\"")
    `` custom<KeywordOperand>($other, "\"other\"")
    (`tensor_map` $tensor_map^ `[` $map_coords `]`)? attr-dict `:` type($ptr)
  }];
  let hasCanonicalizer = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// For each block dimension, the tensor map's dimension it runs along.
    SmallVector<int64_t> getMapDimsOrIdentity();
  }];
}

def Tile_StoreOp : Tile_Op<"store", [
    AttrSizedOperandSegments,
    TypesMatchWith<"value holds the pointees", "ptr", "value",
                   "::mlir::tile::getLoadedType($_self)">,
    OptionalTypesMatchWith<"mask has the pointers' shape", "ptr", "mask",
                           "::mlir::tile::getMaskType($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Store to global memory, optionally masked";
  let description = [{
    Stores each element of `value` through the matching pointer, skipping
    the elements where `mask` is false. Optional, as in `tile.load`: a cache
    operator `cache` (`"wb"`, `"cg"`, `"cs"`, `"wt"`) or an eviction priority
    `evict`, not both, and `is_volatile`; or `sem` (`release` or `relaxed`)
    and `scope` for atomic stores (Triton's `tl.atomic_store`).

    ```mlir
    tile.store %ptrs, %x mask %m : !tile.block<128x!tile.ptr<f32>>
    tile.store %ptrs, %x {evict = "evict_first"} : !tile.block<128x!tile.ptr<f32>>
    tile.store %flag, %one {sem = #tile<sem release>, scope = #tile<scope gpu>} : !tile.ptr<i32>
    ```

    With `tensor_map %map[coords]`, as in `tile.load`, the store says which
    box of a tensor it writes (the mask false exactly outside the tensor);
    the lowering may then write the block with TMA (staged in shared memory,
    `cp.async.bulk.tensor` to global) on sm_90.

    ```mlir
    tile.store %ptrs, %o mask %inside tensor_map %map[%row, %c0]
        : !tile.block<128x64x!tile.ptr<f16>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, AnyType:$value, Optional<Tile_MaskLike>:$mask,
                       Optional<Tile_TensorMapType>:$tensor_map,
                       Variadic<I32>:$map_coords,
                       OptionalAttr<DenseI64ArrayAttr>:$map_dims,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$evict,
                       UnitAttr:$is_volatile, OptionalAttr<Tile_MemSemanticAttr>:$sem,
                       OptionalAttr<Tile_MemScopeAttr>:$scope);
  let assemblyFormat = [{
    $ptr `,` $value `` custom<KeywordOperand>($mask, "\"mask\"")
    (`tensor_map` $tensor_map^ `[` $map_coords `]`)? attr-dict `:` type($ptr)
  }];
  let hasCanonicalizer = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// For each block dimension, the tensor map's dimension it runs along.
    SmallVector<int64_t> getMapDimsOrIdentity();
  }];
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    TypesMatchWith<"value holds the pointees", "ptr", "value",
                   "::mlir::tile::getLoadedType($_self)">,
    TypesMatchWith<"result holds the pointees", "ptr", "result",
                   "::mlir::tile::getLoadedType($_self)">,
    OptionalTypesMatchWith<"mask has the pointers' shape", "ptr", "mask",
                           "::mlir::tile::getMaskType($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Atomic read-modify-write of global memory";
  let description = [{
    For each pointer, atomically replaces the element `*p` with
    `kind(*p, v)` and returns the element it held before. Each element of
    the block is applied exactly once, in no particular order among
    elements; where `mask` is false nothing is done and the result is 0.
    A scalar pointer is one atomic per program instance.

    Kinds and element types (Triton's): `add` on i32, i64, f16, bf16 (from
    sm_90), f32, f64; `max`/`min` (signed) on i32, i64 and on f32, f64
    (ordered as floats: -0.0 below +0.0); `umax`/`umin` on i32, i64; `and`,
    `or`, `xor` on i32, i64; `xchg` on i32, i64, f32, f64. `sem` is the memory ordering (`relaxed`,
    `acquire`, `release`, `acq_rel`) and `scope` the threads it orders
    against (`cta`, `gpu`, `sys`), as PTX's `atom.sem.scope`.

    ```mlir
    %old = tile.atomic_rmw add acq_rel gpu %ptrs, %ones mask %m
        : !tile.block<128x!tile.ptr<i32>>
    %prev = tile.atomic_rmw max relaxed cta %p, %x : !tile.ptr<f32>
    ```
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, Tile_MemSemanticAttr:$sem,
                       Tile_MemScopeAttr:$scope, Tile_PtrLike:$ptr,
                       AnyType:$value, Optional<Tile_MaskLike>:$mask);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind $sem $scope $ptr `,` $value `` custom<KeywordOperand>($mask, "\"mask\"")
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    TypesMatchWith<"cmp holds the pointees", "ptr", "cmp",
                   "::mlir::tile::getLoadedType($_self)">,
    TypesMatchWith<"value holds the pointees", "ptr", "value",
                   "::mlir::tile::getLoadedType($_self)">,
    TypesMatchWith<"result holds the pointees", "ptr", "result",
                   "::mlir::tile::getLoadedType($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Atomic compare-and-swap of global memory";
  let description = [{
    For each pointer, atomically stores `value` in `*p` if `*p` equals `cmp`
    (bitwise) and returns the element `*p` held before, whether or not it
    was replaced. Elements of 16, 32 or 64 bits (i16, i32, i64, f16, bf16,
    f32, f64). `sem` and `scope` as in `tile.atomic_rmw`. A scalar pointer is
    one compare-and-swap per program instance.

    ```mlir
    %old = tile.atomic_cas acq_rel gpu %lock, %c0, %c1 : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope,
                       Tile_PtrLike:$ptr, AnyType:$cmp, AnyType:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $sem $scope $ptr `,` $cmp `,` $value attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans, matrix product
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "Reduce blocks along one axis";
  let description = [{
    Combines the elements along dimension `axis` with `kind`: `sum`, `max`,
    `min`, `maxnum`, `minnum`, `umax`, `umin`, or `custom`, in which case
    the region combines two scalars and yields one (it must be associative
    and commutative). The result drops `axis`; reducing a rank-1 block gives
    a scalar. `max`/`min` compare integers as signed and let floats
    propagate NaN (`tile.maximumf`); `umax`/`umin`, for integers only,
    compare them as unsigned; `maxnum`/`minnum`, for floats only, ignore NaN
    (`tile.maxnumf`: NaN only where every element is NaN), as Triton's
    `tl.max`/`tl.min` do.

    A `custom` reduction may take several blocks of one shape at once (a
    tuple, as Triton's `tl.reduce((values, indices), ...)`): the region
    takes the first element of each, then the second of each, and yields
    one value per block; there is one result per block.

    ```mlir
    %rowmax = tile.reduce max %x {axis = 1 : i32}
        : !tile.block<16x32xf32> -> !tile.block<16xf32>
    %prod = tile.reduce custom %v {axis = 0 : i32} : !tile.block<8xf32> -> f32 {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      tile.yield %m : f32
    }
    %max, %at = tile.reduce custom %v, %i {axis = 0 : i32}
        : !tile.block<8xf32>, !tile.block<8xi32> -> f32, i32 {
    ^bb0(%va: f32, %ia: i32, %vb: f32, %ib: i32):
      %gt = arith.cmpf ogt, %va, %vb : f32
      %v = arith.select %gt, %va, %vb : f32
      %i = arith.select %gt, %ia, %ib : i32
      tile.yield %v, %i : f32, i32
    }
    ```
  }];
  let arguments = (ins Tile_CombineKindAttr:$kind,
                       Variadic<Tile_ScalarBlock>:$srcs, Tile_AxisAttr:$axis);
  let results = (outs Variadic<Tile_ScalarLike>:$results);
  let regions = (region AnyRegion:$combine);
  let assemblyFormat = [{
    $kind $srcs attr-dict `:` type($srcs) `->` type($results) ($combine^)?
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "CombineKind":$kind, "Value":$src, "int32_t":$axis)>
  ];
  let extraClassDeclaration = [{
    /// The operand of a reduction of one block (every kind but `custom`).
    Value getSrc() { return getSrcs().front(); }
    ::mlir::OpOperand &getSrcMutable() { return getSrcsMutable()[0]; }
    /// Its result.
    Value getResult() { return getResults().front(); }
  }];
}

def Tile_ScanOp : Tile_Op<"scan", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Inclusive scan of blocks along one axis";
  let description = [{
    The inclusive prefix combination along dimension `axis` (from the end if
    `reverse` is set: as Triton's, the scan of the reversed line, reversed
    back, so a `custom` region takes what is accumulated from the end as its
    first arguments), with `kind` as in `tile.reduce`. Each result has its
    operand's type. `tile.scan sum` is a cumulative sum. A `custom` scan may
    take several blocks of one shape, as `tile.reduce` does.

    ```mlir
    %c = tile.scan sum %x {axis = 0 : i32} : !tile.block<128xi32>
    %a, %b = tile.scan custom %x, %y {axis = 0 : i32}
        : !tile.block<64xf32>, !tile.block<64xf32> {
    ^bb0(%xa: f32, %ya: f32, %xb: f32, %yb: f32):
      %x = arith.mulf %xa, %xb : f32
      %t = arith.mulf %ya, %xb : f32
      %y = arith.addf %t, %yb : f32
      tile.yield %x, %y : f32, f32
    }
    ```
  }];
  let arguments = (ins Tile_CombineKindAttr:$kind,
                       Variadic<Tile_ScalarBlock>:$srcs, Tile_AxisAttr:$axis,
                       UnitAttr:$reverse);
  let results = (outs Variadic<Tile_ScalarBlock>:$results);
  let regions = (region AnyRegion:$combine);
  let assemblyFormat = [{
    $kind $srcs attr-dict `:` type($srcs) ($combine^)?
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "CombineKind":$kind, "Value":$src, "int32_t":$axis)>
  ];
  let extraClassDeclaration = [{
    /// The operand of a scan of one block (every kind but `custom`).
    Value getSrc() { return getSrcs().front(); }
    ::mlir::OpOperand &getSrcMutable() { return getSrcsMutable()[0]; }
    /// Its result.
    Value getResult() { return getResults().front(); }
  }];
}

def Tile_MapElementwiseOp : Tile_Op<"map_elementwise", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "A scalar function mapped over the elements of blocks";
  let description = [{
    Triton's `tl.map_elementwise(scalar_fn, *args, pack=1)`: the region runs
    once per `pack` elements of the operands, which are blocks of one shape
    (or scalars, with `pack` 1), and yields `pack` elements of each result
    block. Unlike an elementwise expression with `tile.select`, only the
    branch an element takes runs: the region may hold `scf.if` and loops on
    its scalars.

    The region takes, for each operand in turn, `pack` scalars of its element
    type (`%a0, %a1, %b0, %b1` for two operands and `pack` 2), and yields, for
    each result in turn, `pack` scalars of its element type. Which elements
    travel together is the lowering's choice; element `j` of a group of each
    operand gives element `j` of that group of each result. The region
    computes on scalars only: it may not store, print, use atomics or
    barriers, or make blocks.

    ```mlir
    %sign = tile.map_elementwise %x, %y {pack = 1 : i32}
        : (!tile.block<128xi32>, !tile.block<128xi32>) -> (!tile.block<128xi32>) {
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      %r = scf.if %lt -> (i32) {
        %m = arith.constant -1 : i32
        scf.yield %m : i32
      } else {
        %gt = arith.cmpi sgt, %a, %b : i32
        %one = arith.extui %gt : i1 to i32
        scf.yield %one : i32
      }
      tile.yield %r : i32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_ScalarLike>:$args,
                       ConfinedAttr<I32Attr, [IntPositive]>:$pack);
  let results = (outs Variadic<Tile_ScalarLike>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $args attr-dict `:` functional-type($args, $results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator,
    ParentOneOf<["ReduceOp", "ScanOp", "MapElementwiseOp"]>]> {
  let summary = "Yield the values of a reduction, scan or map_elementwise region";
  let description = [{
    ```mlir
    tile.yield %m : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* empty yield */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "Elements of a block picked by indices along one axis";
  let description = [{
    Triton's `tl.gather(src, index, axis)`: `result[i] = src[j]` where `j`
    is `i` with its `axis` coordinate replaced by `index[i]`. `index` has
    `src`'s rank and extents but along `axis`; the result has `index`'s
    shape and `src`'s element type. An index outside `[0, extent)` reads
    some element of `src` (the interpreter reports it as an error).

    ```mlir
    %g = tile.gather %src[%idx] {axis = 1 : i32}
        : !tile.block<16x32xf32>, !tile.block<16x8xi32> -> !tile.block<16x8xf32>
    ```
  }];
  let arguments = (ins Tile_ScalarBlock:$src, Tile_IntBlock:$index,
                       Tile_AxisAttr:$axis);
  let results = (outs Tile_ScalarBlock:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `,` type($index) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "Counts of the values of a block";
  let description = [{
    Triton's `tl.histogram(x, num_bins, mask)`: element `b` of the i32
    result (of `num_bins` elements) counts the elements of the rank-1 i32
    block `src` equal to `b` (where `mask` holds). Values outside
    `[0, num_bins)` are not counted.

    ```mlir
    %h = tile.histogram %x mask %m : !tile.block<1024xi32>, !tile.block<1024xi1>
        -> !tile.block<64xi32>
    ```
  }];
  let arguments = (ins Tile_IntBlock:$src, Optional<Tile_BoolBlock>:$mask);
  let results = (outs Tile_IntBlock:$result);
  let assemblyFormat = [{
    $src (`mask` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure,
    TypesMatchWith<"result type is the accumulator type", "acc", "result", "$_self">]> {
  let summary = "Matrix product with accumulation";
  let description = [{
    `a[M x K] * b[K x N] + acc[M x N]`, or a batch of them: `a[B x M x K] *
    b[B x K x N] + acc[B x M x N]` (rank 3, on FMA). `a` and `b` are f16,
    bf16 or f32 blocks of one element type, with an f32 accumulator and
    result: products are accumulated in f32. Or both are 8-bit floats
    (f8E4M3FN, f8E5M2, one kind each), with an f32 accumulator: wgmma
    multiplies them as they are, the FMA lowering in f16 (exactly). Or both
    are i8, read as signed, with an i32 accumulator and result (Triton's
    int8 dot; wgmma's s8 form on sm_90a): exact, wrapping as i32 arithmetic
    does. Or both are f64, accumulated in f64.

    `tf32` (f32 inputs only; Triton's `input_precision="tf32"`, its default)
    lets the tensor cores read the inputs as tf32: wgmma's k8 form, which
    keeps 10 of f32's 23 fraction bits. Without it, and wherever wgmma does
    not apply, f32 products are exact f32 FMAs.

    A sum `x + tile.dot(a, b, 0)` (`acc += tl.dot(a, b)`) canonicalizes to
    `tile.dot(a, b, x)` where the dot has no other use, as Triton's combine
    pass does: the product accumulates in place, without a second
    accumulator (for floats, the sum is reassociated).

    ```mlir
    %d = tile.dot %a, %b, %c : !tile.block<32x16xf16>, !tile.block<16x64xf16>
        -> !tile.block<32x64xf32>
    %e = tile.dot %p, %q, %r : !tile.block<32x32xi8>, !tile.block<32x16xi8>
        -> !tile.block<32x16xi32>
    %g = tile.dot %u, %v, %w : !tile.block<64x32xf8E4M3FN>,
        !tile.block<32x64xf8E5M2> -> !tile.block<64x64xf32>
    %f = tile.dot %x, %y, %z : !tile.block<4x16x32xf32>, !tile.block<4x32x8xf32>
        -> !tile.block<4x16x8xf32>
    %h = tile.dot %s, %t, %w {tf32} : !tile.block<64x32xf32>,
        !tile.block<32x64xf32> -> !tile.block<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_ScalarBlock:$a, Tile_ScalarBlock:$b, Tile_ScalarBlock:$acc,
                       UnitAttr:$tf32);
  let results = (outs Tile_ScalarBlock:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `->` type($acc)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory rings for tensor-core operands
//===----------------------------------------------------------------------===//

def Tile_Ring : Type<CPred<"::llvm::isa<::mlir::tile::RingType>($_self)">,
                     "ring", "::mlir::tile::RingType">;

def Tile_RingAllocOp : Tile_Op<"ring_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "Shared memory for a ring of operand buffers";
  let description = [{
    The ring's slots live in the kernel's shared memory for the whole kernel,
    apart from the scratch space other ops use.

    ```mlir
    %ring = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
    ```
  }];
  let results = (outs Tile_Ring:$ring);
  let assemblyFormat = "attr-dict `:` qualified(type($ring))";
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [
    AttrSizedOperandSegments,
    OptionalTypesMatchWith<"mask has the pointers' shape", "ptr", "mask",
                           "::mlir::tile::getMaskType($_self)">,
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Copy a block from global memory into a ring slot, asynchronously";
  let description = [{
    Each thread copies the elements of its registers of `ptr` into slot
    `slot` of `ring` (`cp.async`, 16 bytes at a time where the addresses
    allow) without passing through registers; where `mask` is false the slot
    holds zero. The copy is complete only after a `tile.async_commit_group`
    that follows it and a `tile.async_wait` that covers that group, and
    visible to other threads after a barrier (which `tile.ring_dot`
    has).

    ```mlir
    tile.async_copy %ptrs, %ring[%slot] mask %m
        : !tile.block<128x64x!tile.ptr<f16>>, !tile.ring<3, !tile.block<128x64xf16>>
    ```
  }];
  let arguments = (ins Tile_PtrBlock:$ptr, Tile_Ring:$ring, I32:$slot,
                       Optional<Tile_BoolBlock>:$mask,
                       Optional<Tile_TensorMapType>:$tensor_map,
                       Variadic<I32>:$map_coords,
                       OptionalAttr<DenseI64ArrayAttr>:$map_dims);
  let assemblyFormat = [{
    $ptr `,` $ring `[` $slot `]` `` custom<KeywordOperand>($mask, "\"mask\"")
    (`tensor_map` $tensor_map^ `[` $map_coords `]`)?
    attr-dict `:` type($ptr) `,` qualified(type($ring))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// For each block dimension, the tensor map's dimension it runs along.
    SmallVector<int64_t> getMapDimsOrIdentity();
  }];
}

def Tile_RingLoadOp : Tile_Op<"ring_load", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Read a row of a rank-1 ring slot into registers";
  let description = [{
    Each thread reads the elements of its registers of the result from slot
    `slot` of a rank-1 `ring` (row statistics that `tile.async_copy` put
    there). The slot's copies must be complete and visible: after the
    `tile.async_wait` that covers their group and a barrier (which the
    loop's first `tile.ring_dot` has). `tile-async-dot-operands` places it
    where a pipelined loop first reads the statistics.

    ```mlir
    %m = tile.ring_load %ring[%slot]
        : !tile.ring<3, !tile.block<32xf32>> -> !tile.block<32xf32, #slice>
    ```
  }];
  let arguments = (ins Tile_Ring:$ring, I32:$slot);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = [{
    $ring `[` $slot `]` attr-dict `:` qualified(type($ring)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_RingStoreOp : Tile_Op<"ring_store", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Store a block from registers into a ring slot";
  let description = [{
    Each thread stores the elements of its registers of `value` into slot
    `slot` of `ring`, in the form the slot's readers expect (as
    `tile.async_copy` would have copied them). `tile-async-dot-operands`
    puts one where a copy would go one element at a time through registers:
    the block is loaded one iteration earlier, carried through the loop, and
    stored here, so that its reads' latency hides behind an iteration. The
    slot must be free: the stores come after the copies' barrier of the
    iteration (the emitter's, before its first copy or store), and the
    slot's readers wait for them as for that iteration's copies.

    ```mlir
    tile.ring_store %b, %ring[%slot]
        : !tile.block<64x128xf16, #blocked>, !tile.ring<3, !tile.block<64x128xf16>>
    ```
  }];
  let arguments = (ins Tile_Block:$value, Tile_Ring:$ring, I32:$slot);
  let assemblyFormat = [{
    $value `,` $ring `[` $slot `]` attr-dict `:` type($value) `,`
    qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def Tile_RingWaitOp : Tile_Op<"ring_wait"> {
  let summary = "Wait until a TMA copy into a ring slot has landed";
  let description = [{
    Copies into a slot with a tensor map (`tile.async_copy ... tensor_map`)
    complete on the slot's barrier, one phase per copy: the first copy into
    a slot completes phase 0, the next phase 1, then 0 again. The op blocks
    each thread until the copy of parity `phase` (0 or 1) into slot `slot`
    is complete and its data visible to the thread.

    ```mlir
    tile.ring_wait %ring[%slot], %phase : !tile.ring<3, !tile.block<128x64xf16>>
    ```
  }];
  let arguments = (ins Tile_Ring:$ring, I32:$slot, I32:$phase);
  let assemblyFormat = [{
    $ring `[` $slot `]` `,` $phase attr-dict `:` qualified(type($ring))
  }];
}

def Tile_AsyncCommitGroupOp : Tile_Op<"async_commit_group"> {
  let summary = "Close this thread's group of asynchronous copies";
  let description = [{
    The `tile.async_copy` ops this thread issued since the last commit form
    one group, which `tile.async_wait` counts.

    ```mlir
    tile.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait"> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    Blocks the thread until all but the `pending` most recent of its
    committed copy groups are complete.

    ```mlir
    tile.async_wait {pending = 2 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "attr-dict";
}

def Tile_RingDotOp : Tile_Op<"ring_dot", [
    MemoryEffects<[MemRead<DefaultResource>]>,
    TypesMatchWith<"result type is the accumulator type", "acc", "result", "$_self">]> {
  let summary = "Matrix product of ring slots on the tensor cores";
  let description = [{
    `tile.dot` of `a` ([M x K]) and slot `b_slot` of `b` ([K x N]) with the
    accumulator `acc`, whose `#tile.mma` layout says the instruction. With
    version 3, each warpgroup issues `wgmma.mma_async`, reading `b` from
    shared memory; `a` is either slot `a_slot` of a ring, read from shared
    memory too, or a 16-bit block already in the registers wgmma reads A
    from: the accumulator layout of the dot's warps (`#tile.mma` version 3,
    the same warps, one warp column, instruction columns a multiple of 16
    that divides K). With version 2 (`mma.sync`), both operands are slots,
    which each warp reads its fragments of with `ldmatrix`. The element
    types are `tile.dot`'s tensor-core ones: f16 or bf16, 8-bit floats (on
    wgmma) or f32 (read as tf32) with an f32 accumulator, i8 with an i32
    one. The copies into the slots must have been waited for; the op's
    barrier makes every thread's copies visible. With `b_transposed`, B is
    the transpose of the ring's block (16-bit elements): a ring shared by a
    dot that reads a block and one that reads its transpose (attention's
    backward reads q^T and q, do and do^T from the same slots).

    ```mlir
    %d = tile.ring_dot %a[%i], %b[%i], %c
        : !tile.ring<3, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x128xf16>>
          -> !tile.block<128x128xf32, #mma>
    // attention's p @ v: p in registers, v from its ring
    %o = tile.ring_dot %p, %v[%j], %acc
        : !tile.block<128x64xf16, #mma64>, !tile.ring<3, !tile.block<64x64xf16>>
          -> !tile.block<128x64xf32, #mma64>
    // B read from a ring of its transpose
    %t = tile.ring_dot %p, %w[%j], %acc {b_transposed}
        : !tile.block<128x64xf16, #mma64>, !tile.ring<3, !tile.block<32x64xf16>>
          -> !tile.block<128x32xf32, #mma32>
    ```
  }];
  // The optional slot last: the result type is inferred from a fixed
  // operand position.
  let arguments = (ins AnyTypeOf<[Tile_Ring, Tile_FloatBlock]>:$a,
                       Tile_Ring:$b, I32:$b_slot, Tile_ScalarBlock:$acc,
                       Optional<I32>:$a_slot, UnitAttr:$b_transposed);
  let results = (outs Tile_ScalarBlock:$result);
  let assemblyFormat = [{
    $a (`[` $a_slot^ `]`)? `,` $b `[` $b_slot `]` `,` $acc attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `->` type($acc)
  }];
  let extraClassDeclaration = [{
    /// The block of A: a slot of its ring, or A itself in registers.
    BlockType getABlock();
    /// The block of B: a slot of its ring, or its transpose.
    BlockType getBBlock();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

class Tile_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [Pure, Elementwise,
                                             Tile_SameOperandsAndResultLayout])>;

class Tile_BinaryOp<string mnemonic, Type operandType, string what,
                    list<Trait> traits = []>
    : Tile_ElementwiseOp<mnemonic, !listconcat(traits, [SameOperandsAndResultType])> {
  let summary = what # " of two blocks, element by element";
  let description = [{
    Both operands and the result have one block type. Frontends broadcast
    operands of other shapes first (`tile.splat`, `tile.expand_dims`,
    `tile.broadcast`).

    ```mlir
    %z = tile.}] # mnemonic # [{ %x, %y : !tile.block<16x32x}] #
      !if(!eq(operandType, Tile_FloatBlock), "f32", "i32") # [{>
    ```
  }];
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

class Tile_UnaryOp<string mnemonic, Type operandType, string what>
    : Tile_ElementwiseOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = what # " of each element";
  let description = [{
    ```mlir
    %y = tile.}] # mnemonic # [{ %x : !tile.block<128x}] #
      !if(!eq(operandType, Tile_FloatBlock), "f32", "i32") # [{>
    ```
  }];
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

let hasFolder = 1 in {
// Sums into dots (see tile.dot).
let hasCanonicalizer = 1 in {
def Tile_AddIOp : Tile_BinaryOp<"addi", Tile_IntBlock, "Integer sum", [Commutative]>;
def Tile_AddFOp : Tile_BinaryOp<"addf", Tile_FloatBlock, "Float sum", [Commutative]>;
}
def Tile_SubIOp : Tile_BinaryOp<"subi", Tile_IntBlock, "Integer difference">;
def Tile_SubFOp : Tile_BinaryOp<"subf", Tile_FloatBlock, "Float difference">;
def Tile_MulIOp : Tile_BinaryOp<"muli", Tile_IntBlock, "Integer product", [Commutative]>;
def Tile_MulFOp : Tile_BinaryOp<"mulf", Tile_FloatBlock, "Float product", [Commutative]>;
def Tile_DivSIOp : Tile_BinaryOp<"divsi", Tile_IntBlock,
  "Signed integer quotient, truncated toward zero,">;
}
def Tile_DivUIOp : Tile_BinaryOp<"divui", Tile_IntBlock, "Unsigned integer quotient">;
def Tile_DivFOp : Tile_BinaryOp<"divf", Tile_FloatBlock, "Float quotient">;
def Tile_RemSIOp : Tile_BinaryOp<"remsi", Tile_IntBlock,
  "Signed remainder (sign of the dividend, as C),">;
def Tile_RemUIOp : Tile_BinaryOp<"remui", Tile_IntBlock, "Unsigned remainder">;
def Tile_RemFOp : Tile_BinaryOp<"remf", Tile_FloatBlock,
  "Float remainder (sign of the dividend, as C's fmod),">;
def Tile_MinSIOp : Tile_BinaryOp<"minsi", Tile_IntBlock, "Signed minimum", [Commutative]>;
def Tile_MaxSIOp : Tile_BinaryOp<"maxsi", Tile_IntBlock, "Signed maximum", [Commutative]>;
def Tile_MinUIOp : Tile_BinaryOp<"minui", Tile_IntBlock, "Unsigned minimum", [Commutative]>;
def Tile_MaxUIOp : Tile_BinaryOp<"maxui", Tile_IntBlock, "Unsigned maximum", [Commutative]>;
def Tile_MinimumFOp : Tile_BinaryOp<"minimumf", Tile_FloatBlock,
  "Float minimum, NaN if either is NaN,", [Commutative]>;
def Tile_MaximumFOp : Tile_BinaryOp<"maximumf", Tile_FloatBlock,
  "Float maximum, NaN if either is NaN,", [Commutative]>;
def Tile_MinNumFOp : Tile_BinaryOp<"minnumf", Tile_FloatBlock,
  "Float minimum ignoring NaN (the other operand when one is NaN, as C's fmin),",
  [Commutative]>;
def Tile_MaxNumFOp : Tile_BinaryOp<"maxnumf", Tile_FloatBlock,
  "Float maximum ignoring NaN (the other operand when one is NaN, as C's fmax),",
  [Commutative]>;
def Tile_AndIOp : Tile_BinaryOp<"andi", Tile_IntBlock, "Bitwise and", [Commutative]>;
def Tile_OrIOp : Tile_BinaryOp<"ori", Tile_IntBlock, "Bitwise or", [Commutative]>;
def Tile_XOrIOp : Tile_BinaryOp<"xori", Tile_IntBlock, "Bitwise exclusive or", [Commutative]>;
def Tile_ShLIOp : Tile_BinaryOp<"shli", Tile_IntBlock, "Left shift">;
def Tile_ShRSIOp : Tile_BinaryOp<"shrsi", Tile_IntBlock, "Arithmetic right shift">;
def Tile_ShRUIOp : Tile_BinaryOp<"shrui", Tile_IntBlock, "Logical right shift">;
def Tile_PowFOp : Tile_BinaryOp<"powf", Tile_FloatBlock, "Float power">;

def Tile_NegFOp : Tile_UnaryOp<"negf", Tile_FloatBlock, "Float negation">;
def Tile_NotIOp : Tile_UnaryOp<"noti", Tile_IntBlock, "Bitwise complement">;
def Tile_AbsIOp : Tile_UnaryOp<"absi", Tile_IntBlock, "Integer absolute value">;
def Tile_AbsFOp : Tile_UnaryOp<"absf", Tile_FloatBlock, "Float absolute value">;
def Tile_ExpOp : Tile_UnaryOp<"exp", Tile_FloatBlock, "e raised to the power">;
def Tile_Exp2Op : Tile_UnaryOp<"exp2", Tile_FloatBlock, "2 raised to the power">;
def Tile_LogOp : Tile_UnaryOp<"log", Tile_FloatBlock, "Natural logarithm">;
def Tile_Log2Op : Tile_UnaryOp<"log2", Tile_FloatBlock, "Base-2 logarithm">;
def Tile_SqrtOp : Tile_UnaryOp<"sqrt", Tile_FloatBlock, "Square root">;
def Tile_RsqrtOp : Tile_UnaryOp<"rsqrt", Tile_FloatBlock, "Reciprocal square root">;
def Tile_FloorOp : Tile_UnaryOp<"floor", Tile_FloatBlock, "Largest integer not above">;
def Tile_CeilOp : Tile_UnaryOp<"ceil", Tile_FloatBlock, "Smallest integer not below">;
def Tile_SinOp : Tile_UnaryOp<"sin", Tile_FloatBlock, "Sine">;
def Tile_CosOp : Tile_UnaryOp<"cos", Tile_FloatBlock, "Cosine">;

def Tile_FmaOp : Tile_ElementwiseOp<"fma", [SameOperandsAndResultType]> {
  let summary = "Fused multiply-add `a * b + c`, rounded once";
  let description = [{
    ```mlir
    %d = tile.fma %a, %b, %c : !tile.block<64xf32>
    ```
  }];
  let arguments = (ins Tile_FloatBlock:$a, Tile_FloatBlock:$b, Tile_FloatBlock:$c);
  let results = (outs Tile_FloatBlock:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
}

class Tile_CmpOp<string mnemonic, Attr predicateAttr, Type operandType, string what>
    : Tile_ElementwiseOp<mnemonic, [SameTypeOperands,
        TypesMatchWith<"result is an i1 block of the operands' shape",
                       "lhs", "result",
                       "::llvm::cast<::mlir::tile::BlockType>($_self)"
                       ".withElementType(::mlir::IntegerType::get($_ctxt, 1))">]> {
  let summary = what # " comparison of two blocks, giving an i1 block";
  let arguments = (ins predicateAttr:$predicate, operandType:$lhs, operandType:$rhs);
  let results = (outs Tile_BoolBlock:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Tile_CmpIOp : Tile_CmpOp<"cmpi", Arith_CmpIPredicateAttr, Tile_IntBlock, "Integer"> {
  let description = [{
    Predicates as `arith.cmpi` (`eq`, `ne`, `slt`, `sle`, `sgt`, `sge`, `ult`,
    `ule`, `ugt`, `uge`).

    ```mlir
    %m = tile.cmpi slt, %offs, %n : !tile.block<128xi32>
    ```
  }];
  let hasFolder = 1;
}

def Tile_CmpFOp : Tile_CmpOp<"cmpf", Arith_CmpFPredicateAttr, Tile_FloatBlock, "Float"> {
  let description = [{
    Predicates as `arith.cmpf` (`oeq`, `olt`, `une`, ...).

    ```mlir
    %pos = tile.cmpf ogt, %x, %zeros : !tile.block<128xf32>
    ```
  }];
}

def Tile_SelectOp : Tile_ElementwiseOp<"select", [
    AllTypesMatch<["true_value", "false_value", "result"]>,
    TypesMatchWith<"condition is an i1 block of the result's shape",
                   "result", "condition",
                   "::llvm::cast<::mlir::tile::BlockType>($_self)"
                   ".withElementType(::mlir::IntegerType::get($_ctxt, 1))">]> {
  let summary = "Choose elements from two blocks by a condition";
  let description = [{
    ```mlir
    %r = tile.select %m, %x, %zeros : !tile.block<128xf32>
    ```
  }];
  let arguments = (ins Tile_BoolBlock:$condition, Tile_Block:$true_value,
                       Tile_Block:$false_value);
  let results = (outs Tile_Block:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:` type($result)
  }];
  let hasFolder = 1;
}

def Tile_CastOp : Tile_ElementwiseOp<"cast"> {
  let summary = "Convert each element to another scalar type";
  let description = [{
    Converts between any two scalar element types: integers are sign-extended
    (zero-extended with `unsigned_src`, and always for i1) or truncated; floats
    are extended or rounded to nearest even (toward zero with `rtz`, Triton's
    `fp_downcast_rounding="rtz"`); float to integer truncates toward zero
    (saturating at the signed integer's range, or the unsigned one's with
    `unsigned_dst`); integer to float rounds to nearest. Casting to i1
    compares with zero (`x != 0`). Both sides are blocks of one shape, or
    scalars (the frontend casts scalars with `arith`, except with `rtz` and
    for 8-bit floats).

    The 8-bit floats `f8E4M3FN` and `f8E5M2` (Triton's `float8e4nv` and
    `float8e5`) convert to and from floats only, on sm_89 and later. To them,
    a value rounds to nearest even and saturates: a finite value or an
    infinity beyond the largest finite one (448, 57344) becomes that value,
    NaN stays NaN. An f64 rounds to f32 first. `rtz` applies to `f8E5M2`
    only (it keeps infinities). From them, values are exact.

    ```mlir
    %h = tile.cast %x : !tile.block<128xf32> to !tile.block<128xf16>
    %u = tile.cast %i {unsigned_src} : !tile.block<128xi8> to !tile.block<128xf32>
    %w = tile.cast %x {unsigned_dst} : !tile.block<128xf32> to !tile.block<128xi32>
    %z = tile.cast %x {rtz} : !tile.block<128xf32> to !tile.block<128xbf16>
    %q = tile.cast %x : !tile.block<128xf32> to !tile.block<128xf8E4M3FN>
    ```
  }];
  let arguments = (ins Tile_ScalarLike:$src, UnitAttr:$unsigned_src, UnitAttr:$unsigned_dst,
                       UnitAttr:$rtz);
  let results = (outs Tile_ScalarLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Bit casts, pointer casts and external functions (elementwise)
//===----------------------------------------------------------------------===//

def Tile_BitsLike : AnyTypeOf<[Tile_Scalar, Tile_Ptr, Tile_Block],
                              "scalar, pointer, or block of them">;
def Tile_I64Like : AnyTypeOf<[I64, Tile_BlockOf<"e.isInteger(64)", "block of i64">],
                             "i64 or block of i64">;

def Tile_BitcastOp : Tile_ElementwiseOp<"bitcast"> {
  let summary = "Reinterpret the bits of each element as another type";
  let description = [{
    The same bits read as another type of the same width: `f32` <-> `i32`,
    `f16` <-> `i16` <-> `bf16`, `f64` <-> `i64`, or a pointer as a pointer
    to another element type (as Triton's `x.to(dtype, bitcast=True)`). Both
    sides are scalars or pointers, or blocks of one shape. Between integers
    and pointers, use `tile.int_to_ptr` and `tile.ptr_to_int`.

    ```mlir
    %bits = tile.bitcast %x : !tile.block<128xf32> to !tile.block<128xi32>
    %bytes = tile.bitcast %p : !tile.ptr<f32> to !tile.ptr<i8>
    ```
  }];
  let arguments = (ins Tile_BitsLike:$src);
  let results = (outs Tile_BitsLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_IntToPtrOp : Tile_ElementwiseOp<"int_to_ptr"> {
  let summary = "Pointers from 64-bit addresses";
  let description = [{
    Each i64 element read as the address of a pointer (as Triton's
    `x.to(tl.pointer_type(...))` on an int64 value).

    ```mlir
    %p = tile.int_to_ptr %addr : !tile.block<64xi64> to !tile.block<64x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_I64Like:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_ElementwiseOp<"ptr_to_int"> {
  let summary = "The 64-bit addresses of pointers";
  let description = [{
    ```mlir
    %addr = tile.ptr_to_int %p : !tile.ptr<f32> to i64
    ```
  }];
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs Tile_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
}

def Tile_ExternElementwiseOp : Tile_ElementwiseOp<"extern_elementwise"> {
  let summary = "Call an external device function on each element";
  let description = [{
    Calls the function `symbol` (a libdevice function such as `__nv_erff`,
    linked at compile time) on the elements at each position of its
    operands, as Triton's `tl.extern_elementwise` and
    `tl.extra.cuda.libdevice`. Operands and the result are scalars, or blocks
    of one shape; the function must be pure and take and return the element
    types.

    ```mlir
    %e = tile.extern_elementwise "__nv_erff"(%x) : (!tile.block<128xf32>) -> !tile.block<128xf32>
    %h = tile.extern_elementwise "__nv_umulhi"(%a, %b) : (i32, i32) -> i32
    ```
  }];
  let arguments = (ins StrAttr:$symbol, Variadic<Tile_ScalarLike>:$args);
  let results = (outs Tile_ScalarLike:$result);
  let assemblyFormat = "$symbol `(` $args `)` attr-dict `:` functional-type($args, $result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Facts for the compiler
//===----------------------------------------------------------------------===//

def Tile_InlineAsmOp : Tile_Op<"inline_asm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "User PTX over the elements of blocks";
  let description = [{
    Triton's `tl.inline_asm_elementwise`: `asm_string` (PTX with `$0`,
    `$1`, ... for the outputs, then the inputs, as LLVM inline asm) with
    `constraints` runs once per `pack` elements of the operands, which are
    blocks of one shape (or scalars, with `pack` 1); elements narrower than
    32 bits travel packed into registers of up to 32 bits (4 i8 in a `b32`),
    the results likewise, one result block per output type. Without `pure`
    the asm has side effects: it is neither merged nor dropped.

    ```mlir
    %y = tile.inline_asm "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r" %x, %x, %s
        {pack = 1 : i32, pure} : (!tile.block<128xi32>, !tile.block<128xi32>,
        !tile.block<128xi32>) -> (!tile.block<128xi32>)
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, UnitAttr:$pure,
                       ConfinedAttr<I32Attr, [IntPositive]>:$pack,
                       Variadic<Tile_ScalarLike>:$args);
  let results = (outs Variadic<Tile_ScalarLike>:$results);
  let assemblyFormat = [{
    $asm_string `,` $constraints ($args^)? attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Tile_HintOp : Tile_ElementwiseOp<"hint", [SameOperandsAndResultType]> {
  let summary = "State facts about a value's elements that the compiler cannot derive";
  let description = [{
    The identity at run time: the result is the operand. The attributes are
    facts about its elements that the axis analysis takes instead of its own,
    as Triton's `tl.multiple_of` (`divisibility`), `tl.max_contiguous`
    (`contiguity`) and `tl.max_constancy` (`constancy`). Each has one entry
    per dimension (one for a scalar); along that dimension:

    - `contiguity = c`: the elements form runs of `c` consecutive integers
      (pointers to consecutive elements), starting at indices that are
      multiples of `c`; at most the extent;
    - `divisibility = d`: the first element of each run is a multiple of the
      power of two `d` (in bytes for pointers); with contiguity 1 every
      element is;
    - `constancy = k`: runs of `k` equal elements, aligned in the same way;
      at most the extent.

    The compiler vectorizes memory accesses by these facts without checking
    them: a fact that does not hold for every launch gives wrong results.

    ```mlir
    %offs = tile.hint %o divisibility [16] contiguity [16] : !tile.block<128xi32>
    %base = tile.hint %p divisibility [16] : !tile.ptr<f16>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, Tile_Ptr, Tile_IntBlock,
                                  Tile_PtrBlock]>:$src,
                       OptionalAttr<DenseI64ArrayAttr>:$divisibility,
                       OptionalAttr<DenseI64ArrayAttr>:$contiguity,
                       OptionalAttr<DenseI64ArrayAttr>:$constancy);
  let results = (outs AnyTypeOf<[AnySignlessInteger, Tile_Ptr, Tile_IntBlock,
                                 Tile_PtrBlock]>:$result);
  let assemblyFormat = [{
    $src (`divisibility` $divisibility^)? (`contiguity` $contiguity^)?
    (`constancy` $constancy^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Print values from the device (printf)";
  let description = [{
    Triton's `tl.device_print`: prints `prefix` and the values, one line per
    element of each block (by the one thread that holds it, with the
    element's index) and one line per program for scalars, each line led by
    the program id: `pid (0, 0, 0) idx (3) x: 1.500000`. With several
    operands each line names its operand (`x: (operand 1) 7`). `is_signed` says,
    per operand, whether its integers print signed; with `hex` integers and
    the bits of floats print in hexadecimal, zero-padded to their width.

    ```mlir
    tile.print " x: " %x, %n {is_signed = array<i1: true, false>}
        : !tile.block<128xf32>, i32
    tile.print " bits: " hex %x {is_signed = array<i1: true>} : !tile.block<128xf32>
    tile.print " here" {is_signed = array<i1>}
    ```
  }];
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex,
                       DenseBoolArrayAttr:$is_signed,
                       Variadic<AnyTypeOf<[Tile_ScalarLike, Tile_PtrLike]>>:$args);
  let assemblyFormat = [{
    $prefix (`hex` $hex^)? ($args^)? attr-dict (`:` type($args)^)?
  }];
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stop the kernel where a condition does not hold";
  let description = [{
    Triton's `tl.device_assert`: where an element of `condition` is false,
    the thread reports `message` with the op's source location (file, line,
    function) through CUDA's `__assertfail` and the kernel stops; the host
    then sees a device-side assertion error. Elements in the padding of a
    block are not checked. The frontend emits it only with debugging on.

    ```mlir
    tile.assert %in_range, "index out of range" : !tile.block<128xi1>
    ```
  }];
  let arguments = (ins Tile_MaskLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_BarrierOp : Tile_Op<"barrier"> {
  let summary = "Wait for every thread of the program";
  let description = [{
    Triton's `tl.debug_barrier`: a barrier of all threads of the program
    instance (`bar.sync`), which also makes their earlier global memory
    writes visible to each other.

    ```mlir
    tile.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TILE_OPS_TD
