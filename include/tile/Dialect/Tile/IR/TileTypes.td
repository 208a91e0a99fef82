//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "tile/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_Type<"Ptr", "ptr"> {
  let summary = "Pointer into global memory";
  let description = [{
    A pointer to elements of a scalar type in GPU global memory. Pointer
    arithmetic (`tile.addptr`) counts in elements, not bytes.

    Example: `!tile.ptr<f32>`, `!tile.ptr<bf16>`.
  }];
  let parameters = (ins "Type":$pointeeType);
  // Hand-written rather than an assemblyFormat: the generated parser adds an
  // error of its own at every level of a failing nested type, each printing
  // the source line, which made 2,000 nested `!tile.ptr<` take 31 s.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tile_BlockType : Tile_Type<"Block", "block", [
    DeclareTypeInterfaceMethods<ShapedTypeInterface, ["cloneWith"]>]> {
  let summary = "Statically shaped block of values";
  let description = [{
    A block is a value-semantic array with a static shape of rank one or
    more. Every extent is positive; it need not be a power of two (a 24x40
    tile is fine). Elements are the scalar types i1, i8, i16, i32, i64, f16,
    bf16, f32, f64, or pointers `!tile.ptr<T>`.

    After layout assignment a block carries an encoding that says how its
    elements are distributed over GPU threads.

    Examples:

    ```mlir
    !tile.block<16x32xf32>
    !tile.block<128x!tile.ptr<f16>>
    !tile.block<64x64xf32, #tile.blocked<vector = 4, warps = 4>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        OptionalParameter<"Attribute">:$encoding);
  let builders = [
    TypeBuilderWithInferredContext<(ins "ArrayRef<int64_t>":$shape,
                                        "Type":$elementType,
                                        CArg<"Attribute", "{}">:$encoding), [{
      return $_get(elementType.getContext(), shape, elementType, encoding);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of elements in the block.
    int64_t getNumElements() const;
    /// The same block with another element type, keeping shape and encoding.
    BlockType withElementType(Type elementType) const;
    /// The same block with another shape, keeping element type and encoding.
    BlockType withShape(ArrayRef<int64_t> shape) const;
    /// The same block without (or with another) encoding.
    BlockType withEncoding(Attribute encoding) const;
  }];
}

def Tile_RingType : Tile_Type<"Ring", "ring"> {
  let summary = "Slots of one block shape in shared memory, for tensor cores";
  let description = [{
    `slots` buffers in shared memory, each holding one block of `block`'s
    shape and element type, staged as Hopper's tensor cores read matrix
    operands: rows of the widest swizzle (128, 64 or 32 bytes) that fits the
    last dimension, 16-byte chunks XOR-swizzled by the row. A pipelined K
    loop copies iteration k + slots - 1's operands into one slot
    (`tile.async_copy`) while `tile.ring_dot` reads iteration k's from
    another. Made by `tile-async-dot-operands` after layout assignment. The
    block is rank 2, of a type wgmma reads (f16, bf16, f32 as tf32, 8-bit
    floats, i8), with no encoding: the slot layout is the ring's. A rank-1
    ring of 32-bit elements (f32, i32) holds the row statistics a pipelined
    loop reads beside its products (attention backward's `m` and `Di`), one
    contiguous row per slot, which `tile.ring_load` reads into registers.

    Example: `!tile.ring<3, !tile.block<128x64xf16>>`,
    `!tile.ring<3, !tile.block<32xf32>>`.
  }];
  let parameters = (ins "int64_t":$slots, "BlockType":$block);
  let assemblyFormat = "`<` $slots `,` qualified($block) `>`";
  let genVerifyDecl = 1;
}

def Tile_TensorMapType : Tile_Type<"TensorMap", "tensor_map"> {
  let summary = "A TMA tensor map (CUtensorMap) passed by value to a kernel";
  let description = [{
    The 128 bytes of a CUDA tensor map, a kernel parameter that the launcher
    encodes (`cuTensorMapEncodeTiled`) from a host tensor descriptor: its
    base, shape and strides, with the box and swizzle the compiler chose
    for it (reported in the kernel's launch facts). A `tile.load` may name
    one (`tensor_map %map[coords]`) to say that it reads a box of that
    tensor, which the lowering then copies with Hopper's TMA
    (`cp.async.bulk.tensor`) where the block goes to shared memory.

    Example: `!tile.tensor_map`.
  }];
}

#endif // TILE_TYPES_TD
