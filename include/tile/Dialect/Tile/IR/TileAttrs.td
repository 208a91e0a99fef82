//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def Tile_DistributedLayoutInterface
    : AttrInterface<"DistributedLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A layout that spreads the elements of a block over the registers, lanes
    and warps of a program instance. For a given shape every such layout is
    a linear layout (`LinearLayout.h`): a map over GF(2) from the bits of the
    register, lane and warp indices to the coordinates of the block padded to
    powers of two, so that any positive extent works (coordinates past the
    extent are masked off). The lowering only ever asks for that map.
  }];
  let methods = [
    InterfaceMethod<"The rank of the blocks this layout lays out.",
                    "unsigned", "getRank">,
    InterfaceMethod<"The warps of a program instance.", "unsigned",
                    "getNumWarps">,
    InterfaceMethod<[{
        The layout of a block of `shape` (rank `getRank()`) as a linear map
        from register, lane and warp bits to coordinates of the padded block.
      }], "::mlir::tile::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

class Tile_LayoutAttr<string name, string attrMnemonic>
    : Tile_Attr<name, attrMnemonic,
                [DeclareAttrInterfaceMethods<Tile_DistributedLayoutInterface>]>;

def Tile_BlockedLayoutAttr : Tile_LayoutAttr<"BlockedLayout", "blocked"> {
  let summary = "Per-dimension blocked distribution of a block over threads";
  let description = [{
    Each thread holds `size_per_thread[d]` consecutive elements along each
    dimension `d`; `threads_per_warp[d]` threads (product 32) and `warps[d]`
    warps tile the block along `d`, and the pattern repeats in registers
    until the block is covered. `order` lists the dimensions from the
    fastest-varying (the one whose consecutive elements sit in consecutive
    registers and lanes, usually the contiguous one in memory) to the
    slowest. Along a dimension smaller than the pattern, elements are
    replicated across lanes and warps. Extents need not be powers of two:
    the block is padded to powers of two and the padding is masked off.

    The layout pass chooses `size_per_thread` along the contiguous dimension
    of a load or store from an analysis of its addresses, so that accesses
    become 128-bit.

    Example: 4 warps over a 64x64 f32 block, 4 contiguous columns per thread
    (`ld.global.v4`), 16 lanes along a row:

    ```mlir
    #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16],
                  warps = [4, 1], order = [1, 0]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `size_per_thread` `=` `[` $sizePerThread `]` `,`
        `threads_per_warp` `=` `[` $threadsPerWarp `]` `,`
        `warps` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_SliceLayoutAttr : Tile_LayoutAttr<"SliceLayout", "slice"> {
  let summary = "A layout with one dimension removed";
  let description = [{
    The layout of `parent` with dimension `dim` taken away: each element of
    the sliced block sits where the parent puts the elements of its line
    along `dim`, so threads that held different elements of one line hold
    the same element (replicated). Reductions along `dim` produce it, and
    `tile.expand_dims` along `dim` turns it back into `parent` without
    moving any data.

    ```mlir
    // The column sums of a 64x64 block in the layout above.
    #tile.slice<dim = 0, parent = #tile.blocked<size_per_thread = [1, 4],
        threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>>
    ```
  }];
  let parameters = (ins "unsigned":$dim,
                        "DistributedLayoutAttrInterface":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

def Tile_LinearLayoutAttr : Tile_LayoutAttr<"LinearLayout", "linear"> {
  let summary = "A layout given by its bases";
  let description = [{
    A distributed layout written as the linear map itself: the coordinates
    that each bit of the register, lane and warp index selects (a hardware
    index maps to the XOR of the bases of its set bits; an all-zero basis
    replicates). There are 5 lane bases (32 lanes) and log2(warps) warp
    bases. It describes the padded block of one shape exactly, and every
    coordinate of that padded block must be reached. Layouts that no other
    attribute expresses (a reshape of a blocked layout, say) are written
    this way.

    ```mlir
    // 128 elements over 1 warp: 4 consecutive elements per thread.
    #tile.linear<register = [[1], [2]], lane = [[4], [8], [16], [32], [64]],
                 warp = []>
    ```
  }];
  let parameters = (ins "unsigned":$dims,
                        ArrayRefParameter<"int64_t">:$registerBases,
                        ArrayRefParameter<"int64_t">:$laneBases,
                        ArrayRefParameter<"int64_t">:$warpBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The bases of `dim`, flattened: `dims` coordinates per basis.
    ::llvm::ArrayRef<int64_t> getFlatBases(::mlir::tile::HWDim dim) const;
    /// The attribute for the bases of `layout`.
    static LinearLayoutAttr get(::mlir::MLIRContext *context,
                                const ::mlir::tile::LinearLayout &layout);
  }];
}

def Tile_MmaLayoutAttr : Tile_LayoutAttr<"MmaLayout", "mma"> {
  let summary = "The accumulator layout of tensor-core matrix products";
  let description = [{
    How the result of a `tile.dot` on tensor cores sits in registers: each
    warp computes tiles of 16 rows by `instr[1]` columns, lane `l` holding
    rows `l / 4` and `l / 4 + 8` and columns `2 * (l % 4)` and `2 * (l % 4) +
    1` of every 8-column chunk, as the PTX fragments of `mma.sync` (version
    2, `instr = [16, 8, k]`) and `wgmma.mma_async` (version 3, a warpgroup of
    4 warps along the rows computing 64 x `instr[1]`) lay them out. `warps`
    spreads the warps over rows (first) and columns; the tiles repeat in
    registers, along columns first, until the block is covered. `instr[2]`
    is the instruction's depth, 32 bytes of K: 16 for f16 and bf16, 32 for
    8-bit floats and int8, 8 for tf32 (mma.sync reads 8-bit floats widened
    to f16, 16 deep).

    ```mlir
    // 128x128 f32 accumulator of 8 warps: two warpgroups of 64 rows, each
    // issuing wgmma m64n128k16.
    #tile.mma<version = 3, warps = [8, 1], instr = [16, 128, 16]>
    ```
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `version` `=` $version `,` `warps` `=` `[` $warpsPerCTA `]` `,`
        `instr` `=` `[` $instrShape `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getInstrM() const { return getInstrShape()[0]; }
    unsigned getInstrN() const { return getInstrShape()[1]; }
    unsigned getInstrK() const { return getInstrShape()[2]; }
  }];
}

def Tile_CombineKind : I32EnumAttr<"CombineKind",
    "how a reduction or scan combines two elements", [
      I32EnumAttrCase<"sum", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"custom", 3>,
      I32EnumAttrCase<"maxnum", 4>,
      I32EnumAttrCase<"minnum", 5>,
      I32EnumAttrCase<"umax", 6>,
      I32EnumAttrCase<"umin", 7>
    ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_CombineKindAttr : EnumAttr<Tile_Dialect, Tile_CombineKind, "combine"> {
  let assemblyFormat = "$value";
}

def Tile_AtomicKind : I32EnumAttr<"AtomicKind",
    "how an atomic read-modify-write combines memory with a value", [
      I32EnumAttrCase<"add", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"umax", 3>,
      I32EnumAttrCase<"umin", 4>,
      I32EnumAttrCase<"bit_and", 5, "and">,
      I32EnumAttrCase<"bit_or", 6, "or">,
      I32EnumAttrCase<"bit_xor", 7, "xor">,
      I32EnumAttrCase<"xchg", 8>
    ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_AtomicKindAttr : EnumAttr<Tile_Dialect, Tile_AtomicKind, "atomic"> {
  let assemblyFormat = "$value";
}

def Tile_MemSemantic : I32EnumAttr<"MemSemantic",
    "the memory ordering of an atomic (PTX .sem)", [
      I32EnumAttrCase<"relaxed", 0>,
      I32EnumAttrCase<"acquire", 1>,
      I32EnumAttrCase<"release", 2>,
      I32EnumAttrCase<"acq_rel", 3>
    ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemSemanticAttr : EnumAttr<Tile_Dialect, Tile_MemSemantic, "sem"> {
  let assemblyFormat = "$value";
}

def Tile_MemScope : I32EnumAttr<"MemScope",
    "the threads an atomic synchronizes with (PTX .scope)", [
      I32EnumAttrCase<"cta", 0>,
      I32EnumAttrCase<"gpu", 1>,
      I32EnumAttrCase<"sys", 2>
    ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemScopeAttr : EnumAttr<Tile_Dialect, Tile_MemScope, "scope"> {
  let assemblyFormat = "$value";
}

#endif // TILE_ATTRS_TD
