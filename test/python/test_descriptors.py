"""Tensor descriptors (in-kernel and from the host), block pointers and tuple
arguments: what they compile to, what they compute (interpreted, against
NumPy), and their located errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_error_at, requires_library

import tile
import tile.language as tl
from tile.runtime.launch import argument_type, compile_for_args, kernel_arguments
from tile.tools.tensor_descriptor import TensorDescriptor

THIS_FILE = Path(__file__)
torch = pytest.importorskip("torch")


@tile.jit
def _maybe_make_tensor_desc(desc_or_ptr, shape, strides, block_shape):
    # As Triton's tutorial 06: a descriptor from the host, or one made here.
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@tile.jit
def double_tiles(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = _maybe_make_tensor_desc(x, [M, N], [N, 1], [BM, BN])
    dst = _maybe_make_tensor_desc(y, [M, N], [N, 1], [BM, BN])
    row = tl.program_id(0) * BM
    for col in range(0, N, BN):
        dst.store([row, col], src.load([row, col]) * 2)


@tile.jit
def transpose_plus_one(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr, PADDING: tl.constexpr):
    row = tl.program_id(0) * BM
    src = tl.make_block_ptr(x, (M, N), (N, 1), (row, 0), (BM, BN), (1, 0))
    dst = tl.make_block_ptr(y, (N, M), (1, N), (0, row), (BN, BM), (0, 1))
    for _ in range(0, tl.cdiv(N, BN)):
        block = tl.load(src, boundary_check=(0, 1), padding_option=PADDING)
        tl.store(dst, block.T + 1, boundary_check=(0, 1))
        src = tl.advance(src, (0, BN))
        dst = tl.advance(dst, [BN, 0])


@tile.jit
def padded_sums(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr, PADDING: tl.constexpr):
    # The block at (-2, N - 4) reaches outside on both sides: padded.
    desc = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN], padding_option=PADDING)
    block = desc.load([-2, N - 4])
    tl.store(out + tl.arange(0, BM), tl.sum(block, 1))


def test_tuples_and_descriptors_are_launch_arguments() -> None:
    x = torch.zeros(8, 16, dtype=torch.float16)
    desc = TensorDescriptor.from_tensor(x, [4, 8])
    assert argument_type((1, x)) == "(i32,*fp16)"
    assert argument_type(desc) == "tensordesc<fp16[4,8]>"
    assert argument_type(TensorDescriptor(x.float(), [8, 16], [16, 1], [4, 8], "nan")) == \
        "tensordesc<fp32[4,8],nan>"
    # A descriptor reaches the kernel as its base, shape and strides but the
    # last, and as itself for its tensor map (the launcher encodes it).
    assert [(n, v if isinstance(v, int) else "desc" if v is desc else "base")
            for n, v in kernel_arguments("d", desc)] \
        == [("d.base", "base"), ("d.shape[0]", 8), ("d.shape[1]", 16), ("d.strides[0]", 16),
            ("d.tensor_map", "desc")]
    assert [n for n, _ in kernel_arguments("t", (1, (2, 3)))] == ["t[0]", "t[1][0]", "t[1][1]"]


def test_host_descriptors_check_what_triton_checks() -> None:
    x = torch.zeros(8, 12, dtype=torch.float16)
    with pytest.raises(ValueError, match="strides must be 16-byte aligned"):
        TensorDescriptor.from_tensor(x, [4, 4])  # rows of 24 bytes
    with pytest.raises(ValueError, match="last dimension must be contiguous"):
        TensorDescriptor(torch.zeros(8, 16, dtype=torch.float16), [16, 8], [8, 2], [4, 4])
    with pytest.raises(ValueError, match="rank mismatch"):
        TensorDescriptor(x, [8, 12], [12, 1], [4])
    with pytest.raises(ValueError, match="padding must be 'zero' or 'nan'"):
        TensorDescriptor(torch.zeros(8, 16), [8, 16], [16, 1], [4, 4], "one")


@pytest.mark.parametrize("from_host", [False, True])
def test_descriptor_loads_and_stores_interpreted(from_host: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_INTERPRET", "1")
    M, N = 37, 72  # neither a multiple of the block
    x = torch.randn(M, N)
    y = torch.full((M, N), float("nan"))
    if from_host:
        args = (TensorDescriptor.from_tensor(x, [16, 32]),
                TensorDescriptor.from_tensor(y, [16, 32]))
    else:
        args = (x, y)
    double_tiles[(tile.cdiv(M, 16),)](*args, M, N, BM=16, BN=32)
    assert torch.equal(y, 2 * x)  # every element written once, none outside


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_descriptor_padding_interpreted(padding: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_INTERPRET", "1")
    M, N = 6, 16
    x = torch.arange(M * N, dtype=torch.float32).reshape(M, N)
    out = torch.zeros(8)
    padded_sums[(1,)](x, out, M, N, BM=8, BN=8, PADDING=padding)
    inside = x[:, N - 4:].sum(1)  # rows 0..5 at block rows 2..7, columns N-4..N-1
    if padding == "nan":
        assert torch.isnan(out).all()  # every row reaches outside
    else:
        assert torch.equal(out, torch.cat([torch.zeros(2), inside]))


@pytest.mark.parametrize("padding", ["", "zero", "nan"])
def test_block_pointers_interpreted(padding: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_INTERPRET", "1")
    M, N = 37, 70
    x = torch.randn(M, N)
    y = torch.zeros(M, N)
    transpose_plus_one[(tile.cdiv(M, 16),)](x, y, M, N, BM=16, BN=32, PADDING=padding)
    assert torch.equal(y, x + 1)


@requires_library
def test_descriptor_blocks_are_masked_vector_accesses() -> None:
    # Rows of a 16-byte-aligned descriptor and a last dimension of known
    # divisibility: 16-byte (8 x fp16) accesses, each predicated.
    x = torch.zeros(64, 128, dtype=torch.float16)
    desc = TensorDescriptor.from_tensor(x, [64, 64])
    compiled, values, _ = compile_for_args(double_tiles, (desc, desc, 64, 128),
                                           {"BM": 64, "BN": 64}, {"target": "sm_90"})
    assert [p["name"] for p in compiled.metadata["params"]][:4] == \
        ["x.base", "x.shape[0]", "x.shape[1]", "x.strides[0]"]
    assert len(values) == len(compiled.metadata["params"])
    accesses = [line.split()[1] for line in compiled.asm["ptx"].splitlines()
                if "ld.global" in line or "st.global" in line]
    assert accesses and all(a in ("ld.global.v4.b32", "st.global.v4.b32") for a in accesses), \
        accesses
    assert all(line.lstrip().startswith("@%p") for line in compiled.asm["ptx"].splitlines()
               if "ld.global" in line or "st.global" in line)
    # Without specialization: what a TensorDescriptor guarantees (16-byte
    # aligned base and rows: 8 fp16 elements).
    ir = tile.generate_ir(double_tiles, "tensordesc<fp16[64,64]>,tensordesc<fp16[64,64]>,i32,i32",
                          {"BM": 64, "BN": 64})
    assert '!tile.ptr<f16> {tile.divisibility = 16 : i32} loc("x.base"' in ir
    assert 'i64 {tile.divisibility = 8 : i32} loc("x.strides[0]"' in ir


@tile.jit
def bad_uses(x, WHAT: tl.constexpr):
    if WHAT == "block_shape":
        tl.make_tensor_descriptor(x, [8, 8], [8, 1], [8, 6])  # ERR-block_shape
    if WHAT == "last_stride":
        tl.make_tensor_descriptor(x, [8, 8], [1, 8], [8, 8])  # ERR-last_stride
    if WHAT == "rank":
        tl.make_tensor_descriptor(x, [8], [8, 1], [8, 8])  # ERR-rank
    if WHAT == "padding":
        tl.make_tensor_descriptor(x, [8, 8], [8, 1], [8, 8], padding_option="one")  # ERR-padding
    if WHAT == "store_shape":
        d = tl.make_tensor_descriptor(x, [8, 8], [8, 1], [8, 8])
        d.store([0, 0], tl.zeros([4, 8], tl.float32))  # ERR-store_shape
    if WHAT == "offsets":
        d = tl.make_tensor_descriptor(x, [8, 8], [8, 1], [8, 8])
        d.load([0])  # ERR-offsets
    if WHAT == "mask":
        p = tl.make_block_ptr(x, (8,), (1,), (0,), (8,), (0,))
        tl.load(p, mask=tl.arange(0, 8) < 4)  # ERR-mask
    if WHAT == "check":
        p = tl.make_block_ptr(x, (8,), (1,), (0,), (8,), (0,))
        tl.load(p, boundary_check=(1,))  # ERR-check
    if WHAT == "advance":
        moved = tl.advance(x, (1,))  # ERR-advance
    if WHAT == "order":
        tl.make_block_ptr(x, (8,), (1,), (0,), (8,), (1,))  # ERR-order
    if WHAT == "gather_rows":
        d = tl.make_tensor_descriptor(x, [8, 64], [64, 1], [2, 32])
        d.gather(tl.arange(0, 8), 0)  # ERR-gather_rows
    if WHAT == "gather_few":
        d = tl.make_tensor_descriptor(x, [8, 64], [64, 1], [1, 32])
        d.gather(tl.arange(0, 4), 0)  # ERR-gather_few
    if WHAT == "gather_narrow":
        d = tl.make_tensor_descriptor(x, [8, 64], [64, 1], [1, 4])
        d.gather(tl.arange(0, 8), 0)  # ERR-gather_narrow
    if WHAT == "scatter_shape":
        d = tl.make_tensor_descriptor(x, [8, 64], [64, 1], [1, 32])
        d.scatter(tl.zeros([8, 16], tl.float32), tl.arange(0, 8), 0)  # ERR-scatter_shape
    if WHAT == "atomic_type":
        d = tl.make_tensor_descriptor(x, [8, 64], [64, 1], [8, 8])
        d.atomic_max([0, 0], tl.zeros([8, 8], tl.float32))  # ERR-atomic_type
    if WHAT == "not_descriptor":
        tl.load_tensor_descriptor(x, [0])  # ERR-not_descriptor


BAD = [
    ("block_shape", "block_shape extents must be powers of two, got [8, 6]"),
    ("last_stride", "the last stride must be the constant 1"),
    ("rank", "shape must be a list or tuple of 2 integers"),
    ("padding", "padding_option must be 'zero' or 'nan', got 'one'"),
    ("store_shape", "the value's shape [4, 8] is not the descriptor's block shape [8, 8]"),
    ("offsets", "desc.load's offsets must be a list or tuple of 2 integers"),
    ("mask", "a block pointer takes boundary_check and padding_option, not mask and other"),
    ("check", "boundary_check dimension 1 is out of range for a rank-1 block pointer"),
    ("advance", "tl.advance needs a block pointer"),
    ("order", "order must be a permutation of 0..0, got [1]"),
    ("gather_rows", "desc.gather needs a 2-D descriptor with blocks of one row"),
    ("gather_few", "desc.gather takes at least 8 rows, got 4"),
    ("gather_narrow", "desc.gather of fp32 needs blocks of at least 8 columns, got 4"),
    ("scatter_shape", "desc.scatter: the value's shape [8, 16] is not [8, 32]"),
    ("atomic_type", "desc.atomic_max does not support fp32 elements"),
    ("not_descriptor", "tl.load_tensor_descriptor needs a tensor descriptor"),
]


@pytest.mark.parametrize("what, message", BAD, ids=[b[0] for b in BAD])
def test_errors_are_located(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(bad_uses, "*fp32", {"WHAT": what})
    assert message in str(info.value), str(info.value)
    assert_error_at(info.value, THIS_FILE, f"ERR-{what}")


def _bench_kernels():  # type: ignore[no-untyped-def]
    """bench/kernels.py with tile as its `triton`, loaded as bench/run.py loads it."""
    import sys
    sys.path.insert(0, str(THIS_FILE.parents[2] / "bench"))
    from run import load_kernels
    return load_kernels("tile")


@requires_library
def test_tutorial06_streams_k_and_v_through_rings() -> None:
    # desc_k.load(...).T is a load of transposed pointers (the tile.trans
    # canonicalization), so K, like V, reaches wgmma through a ring, and q
    # through its one-slot ring. Host descriptors fill them with TMA (each
    # load names its box of the descriptor's map), and so do the descriptors
    # the kernel makes: their shapes and strides are products of its
    # arguments, so the launcher encodes their maps as well (hidden
    # parameters with recipes). Without TMA (tile.knobs.compilation.tma =
    # False) both take as many cp.async copies as the pointer-based kernel.
    # None loads synchronously.
    k = _bench_kernels()
    q = torch.empty(4, 32, 1024, 64, dtype=torch.float16)
    m = torch.empty(4, 32, 1024)
    descs = [TensorDescriptor(q, [4 * 32 * 1024, 64], [64, 1], [b, 64])
             for b in (128, 64, 64, 128)]
    options = {"target": "sm_90a", "num_warps": 8, "num_stages": 3}
    constants = dict(N_CTX=1024, HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, FP8_OUTPUT=False,
                     STAGE=1, warp_specialize=False, IS_HOPPER=True)
    compiled = {}
    for tma in (True, False):
        with tile.knobs.compilation.scope():
            tile.knobs.compilation.tma = tma
            compiled["host", tma], _, _ = compile_for_args(
                k.attention06_fwd.fn, (0.125, m, 4, 32, *descs), constants, options)
            compiled["in_kernel", tma], _, _ = compile_for_args(
                k.attention06_fwd.fn, (0.125, m, 4, 32, q, q, q, q), constants, options)
    pointers, _, _ = compile_for_args(k.attention_fwd, (q, q, q, q, 0.125, 1024),
                                      dict(HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, CAUSAL=False),
                                      options)
    copies = {key: c.asm["ptx"].count("cp.async.cg.shared.global") for key, c in compiled.items()}
    pointer_copies = pointers.asm["ptx"].count("cp.async.cg.shared.global")
    assert pointer_copies > 0 and copies == {
        ("host", True): 0, ("in_kernel", True): 0,
        ("host", False): pointer_copies, ("in_kernel", False): pointer_copies}, copies
    for kind in ("host", "in_kernel"):
        ptx = compiled[kind, True].asm["ptx"]
        assert "cp.async.bulk" not in compiled[kind, False].asm["ptx"]
        # q once; K and V in the prologue (2 stages) and the loop: 1 + 3 * 2;
        # and the output's store.
        assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global") == 7, kind
        assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta") == 1, kind
        # Nothing is read after it: the writes complete on their own.
        assert "cp.async.bulk.wait_group.read 0" in ptx
        maps = {p["name"]: p for p in compiled[kind, True].metadata["params"]
                if p["type"] == "tensormap"}
        assert [maps[f"desc_{n}.tensor_map"].get("box") for n in "qkvo"] == \
            [[128, 64], [64, 64], [64, 64], [128, 64]]
    # The kernel's descriptors: shape [Z * H * N_CTX, HEAD_DIM], strides
    # [HEAD_DIM, 1] with HEAD_DIM = 64, each on its pointer (by number).
    params = compiled["in_kernel", True].metadata["params"]
    number = {p["name"]: i for i, p in enumerate(params)}
    recipes = {p["name"]: p["recipe"] for p in params if p["type"] == "tensormap"}
    assert recipes == {
        f"desc_{n}.tensor_map": {
            "base": number[f"desc_{n}"],
            "shape": [[1, [number["Z"], number["H"], number["N_CTX"]]], [64, []]],
            "strides": [[64, []], [1, []]]} for n in "qkvo"}
    for c in compiled.values():
        assert "ld.global" not in c.asm["ptx"]
        assert "wgmma.mma_async" in c.asm["ptx"]


@pytest.mark.parametrize("transposed_b", [False, True], ids=["b", "b_t"])
@requires_library
def test_descriptor_matmul_copies_with_tma(transposed_b: bool) -> None:
    # bench/kernels.py's descriptor matmul (test/gpu/test_tma.py runs it), with TMA: every operand copy is
    # a cp.async.bulk.tensor (B = W^T too: its box runs along W's rows), and
    # the launch facts give each map's box (a column block of its ring's
    # slot, as wide as the 128-byte swizzle) for the launcher's encoding.
    descriptor_matmul = _bench_kernels().descriptor_matmul
    a = torch.empty(200, 104, dtype=torch.float16)
    w = torch.empty(136, 104, dtype=torch.float16) if transposed_b else \
        torch.empty(104, 136, dtype=torch.float16)
    c = torch.empty(200, 136)
    descs = (TensorDescriptor.from_tensor(a, [128, 64]),
             TensorDescriptor.from_tensor(w, [128, 64] if transposed_b else [64, 128]))
    with tile.knobs.compilation.scope():
        tile.knobs.compilation.tma = True
        compiled, _, _ = compile_for_args(
            descriptor_matmul, (*descs, c, 200, 136, 104),
            dict(TRANSPOSED_B=transposed_b, BM=128, BN=128, BK=64),
            {"target": "sm_90a", "num_warps": 8, "num_stages": 3})
    ptx = compiled.asm["ptx"]
    assert "cp.async.cg" not in ptx and "ld.global" not in ptx
    # A's box, and B's one (W^T: one box) or two (a 128-wide row: two column
    # blocks) per slot, in the prologue's 2 stages and the loop.
    assert ptx.count("cp.async.bulk.tensor.2d") == 3 * (2 if transposed_b else 3)
    maps = {p["name"]: p for p in compiled.metadata["params"] if p["type"] == "tensormap"}
    assert (maps["a_desc.tensor_map"]["box"], maps["b_desc.tensor_map"]["box"]) == \
        ([128, 64], [128, 64] if transposed_b else [64, 64])
    assert all(m["swizzle"] == 128 and m["element_bytes"] == 2 for m in maps.values())
    assert compiled.metadata["stack_frame_bytes"] == 0 and compiled.metadata["registers"] < 128


@requires_library
def test_descriptor_stores_with_tma() -> None:
    # With TMA on sm_90a, desc.store stages the block in shared memory and
    # writes it with one cp.async.bulk.tensor (64 fp16 columns: one 128-byte
    # column block); the loads stay vector loads (no dot). sm_90's PTX ISA and
    # sm_80 have no TMA: the same kernel stores with st.global there.
    x = torch.zeros(64, 128, dtype=torch.float16)
    desc = TensorDescriptor.from_tensor(x, [64, 64])
    ptx = {}
    for chip in ("sm_90a", "sm_90", "sm_80"):
        with tile.knobs.compilation.scope():
            tile.knobs.compilation.tma = True
            compiled, _, _ = compile_for_args(double_tiles, (desc, desc, 64, 128),
                                              {"BM": 64, "BN": 64}, {"target": chip})
        ptx[chip] = compiled.asm["ptx"]
        boxes = {p["name"]: p.get("box") for p in compiled.metadata["params"]
                 if p["type"] == "tensormap"}
        assert boxes == {"x.tensor_map": None,
                         "y.tensor_map": [64, 64] if chip == "sm_90a" else None}, chip
    assert ptx["sm_90a"].count("cp.async.bulk.tensor.2d.global.shared::cta") == 1
    assert "st.global" not in ptx["sm_90a"] and "ld.global.v4" in ptx["sm_90a"]
    # The loop reads memory after each store (the next tiles): thread 0 waits
    # until the writes are done, not only read, and a barrier follows.
    assert "cp.async.bulk.wait_group 0;\n" in ptx["sm_90a"].replace("\t", "")
    assert "fence.proxy.async.global" in ptx["sm_90a"]
    for chip in ("sm_90", "sm_80"):
        assert "cp.async.bulk" not in ptx[chip] and "st.global.v4" in ptx[chip]


def _matmul_arguments(kernel: str, m: int, n: int, k: int, b_column_major: bool = False,
                      offset: int = 0) -> tuple:
    # A (m x k, its data `offset` elements into its buffer), B (k x n, or
    # its transpose's view), C (m x n): bench/kernels.py's in-kernel
    # descriptor and block-pointer matmuls' arguments.
    a = torch.empty(m * k + offset, dtype=torch.float16)[offset:].view(m, k)
    b = torch.empty(n, k, dtype=torch.float16).T if b_column_major else \
        torch.empty(k, n, dtype=torch.float16)
    c = torch.empty(m, n, dtype=torch.float16)
    if kernel == "in_kernel_descriptor_matmul":
        return (a, b, c, m, n, k)
    return (a, b, c, m, n, k, *a.stride(), *b.stride(), *c.stride())


def _compile_matmul(kernel: str, arguments: tuple):
    compiled, _, _ = compile_for_args(getattr(_bench_kernels(), kernel), arguments,
                                      dict(BM=128, BN=128, BK=64),
                                      {"target": "sm_90a", "num_warps": 8, "num_stages": 3})
    ptx = compiled.asm["ptx"]
    recipes = {p["name"]: p["recipe"] for p in compiled.metadata["params"]
               if p["type"] == "tensormap"}
    counts = {"tma_loads": ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global"),
              "tma_stores": ptx.count("cp.async.bulk.tensor.2d.global.shared::cta"),
              "cp_async": ptx.count("cp.async.cg.shared.global"),
              "ld_global": ptx.count("ld.global"), "st_global": ptx.count("st.global")}
    return compiled, recipes, counts


@pytest.mark.parametrize("kernel,b_column_major", [
    ("in_kernel_descriptor_matmul", False), ("block_pointer_matmul", False),
    ("block_pointer_matmul", True)], ids=["descriptors", "block_pointers", "block_pointers_b_t"])
@requires_library
def test_maps_made_in_the_kernel_are_encoded_at_launch(kernel: str, b_column_major: bool) -> None:
    # Descriptors and block pointers the kernel makes, over 16-byte aligned
    # tensors with 16-byte multiple row strides (the specialization says so):
    # their maps become hidden parameters after the kernel's own, each with
    # the recipe the launcher encodes it by (the numbers of the arguments
    # whose product each extent and stride is), and every operand copy and
    # the store are TMA. Column-major B (stride_bk = 1) is a map of B^T whose
    # box the wgmma reads K-major: one box a slot, not two.
    with tile.knobs.compilation.scope():
        tile.knobs.compilation.tma = True
        compiled, recipes, counts = _compile_matmul(
            kernel, _matmul_arguments(kernel, 256, 256, 128, b_column_major))
    params = compiled.metadata["params"]
    number = {p["name"]: i for i, p in enumerate(params)}
    assert [p["name"] for p in params[-3:]] == [f"{n}_ptr.tensor_map" for n in "abc"]
    if kernel == "in_kernel_descriptor_matmul":
        row_strides = {"a": "K", "b": "N", "c": "N"}
    else:
        row_strides = {"a": "stride_am", "b": "stride_bn" if b_column_major else "stride_bk",
                       "c": "stride_cm"}
    extents = {"a": ("M", "K"), "b": ("N", "K") if b_column_major else ("K", "N"),
               "c": ("M", "N")}
    assert recipes == {f"{n}_ptr.tensor_map": {
        "base": number[f"{n}_ptr"],
        "shape": [[1, [number[extents[n][0]]]], [1, [number[extents[n][1]]]]],
        "strides": [[1, [number[row_strides[n]]]], [1, []]]} for n in "abc"}
    # A's box a slot, B's one or two (64 wide with the 128-byte swizzle),
    # in the prologue's 2 stages and the loop; C in two column blocks.
    assert counts == {"tma_loads": 3 * (2 if b_column_major else 3), "tma_stores": 2,
                      "cp_async": 0, "ld_global": 0, "st_global": 0}, counts
    assert compiled.metadata["stack_frame_bytes"] == 0


@requires_library
def test_maps_the_launcher_cannot_encode_keep_pointers() -> None:
    # A 2 bytes past an aligned address (TMA needs 16) and K = 100 (A's rows
    # 200 bytes apart, not a multiple of 16): A's map cannot be a parameter,
    # so A's blocks are loads of its masked pointers (element by element, as
    # nothing says more is aligned); B (rows of N elements) and C keep their
    # maps. With the knob off no map is made at all.
    for offset, k in ((1, 128), (0, 100)):
        with tile.knobs.compilation.scope():
            tile.knobs.compilation.tma = True
            _, recipes, counts = _compile_matmul(
                "in_kernel_descriptor_matmul",
                _matmul_arguments("in_kernel_descriptor_matmul", 256, 256, k, offset=offset))
        assert set(recipes) == {"b_ptr.tensor_map", "c_ptr.tensor_map"}, (offset, k)
        assert counts == {"tma_loads": 6, "tma_stores": 2, "cp_async": 0,
                          "ld_global": 3 * 128 * 64 // 256, "st_global": 0}, (offset, k)
    with tile.knobs.compilation.scope():
        tile.knobs.compilation.tma = False
        _, recipes, counts = _compile_matmul(
            "in_kernel_descriptor_matmul", _matmul_arguments("in_kernel_descriptor_matmul",
                                                             256, 256, 128))
    assert recipes == {} and counts["tma_loads"] == counts["tma_stores"] == 0 and \
        counts["cp_async"] > 0


@pytest.mark.parametrize("b_column_major", [False, True], ids=["b", "b_t"])
@requires_library
def test_block_pointer_operands_are_async_copies(b_column_major: bool) -> None:
    # Without TMA a block pointer's blocks are cp.async copies of 16 bytes,
    # column-major B's too: the index column `reshape(offset + arange(n),
    # (n, 1))` keeps its contiguity down the rows (it lost it once, and B
    # went by 2-byte loads).
    with tile.knobs.compilation.scope():
        tile.knobs.compilation.tma = False
        _, _, counts = _compile_matmul(
            "block_pointer_matmul", _matmul_arguments("block_pointer_matmul", 256, 256, 128,
                                                      b_column_major))
    # A's and B's 128x64 and 64x128 f16 blocks in 16-byte pieces over 256
    # threads, in 3 stages; C by 8 vector stores a thread.
    assert counts == {"tma_loads": 0, "tma_stores": 0, "cp_async": 3 * 2 * 4, "ld_global": 0,
                      "st_global": 8}, counts


@tile.jit
def chosen_descriptors(x_desc, y_desc, a_desc, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    # Descriptors picked by branches and carried through a loop: their maps
    # are values of the kernel like any other.
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    b = x_desc
    for k in range(0, K // BK):
        acc = tl.dot(a_desc.load([0, k * BK]), b.load([k * BK, 0]), acc)
        if k % 2 == 0:
            b = y_desc
        else:
            b = x_desc
    out = x_desc
    if tl.program_id(0) == 0:
        out = y_desc
    out.store([0, 0], acc.to(tl.float16))
    tl.store(c_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)


@requires_library
def test_maps_of_chosen_descriptors() -> None:
    # A's loads (a kernel parameter's map) fill their ring with TMA; B's
    # descriptor and the store's change at run time, so their blocks go as
    # they would without TMA (cp.async, st.global): the maps flow through
    # the loop and the branches all the same.
    x = torch.empty(256, 64, dtype=torch.float16)
    descs = [TensorDescriptor.from_tensor(x, [64, 64]) for _ in range(3)]
    with tile.knobs.compilation.scope():
        tile.knobs.compilation.tma = True
        compiled, _, _ = compile_for_args(chosen_descriptors,
                                          (*descs, torch.empty(64, 64), 256),
                                          {"BM": 64, "BN": 64, "BK": 64},
                                          {"target": "sm_90a", "num_stages": 3})
    ptx = compiled.asm["ptx"]
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster") == 3  # A: 2 stages + loop
    assert "cp.async.cg.shared.global" in ptx and "st.global" in ptx
    assert "cp.async.bulk.tensor.2d.global" not in ptx
    boxes = {p["name"]: p.get("box") for p in compiled.metadata["params"]
             if p["type"] == "tensormap"}
    assert boxes == {"x_desc.tensor_map": None, "y_desc.tensor_map": None,
                     "a_desc.tensor_map": [64, 64]}


@requires_library
def test_causal_stages_share_their_rings() -> None:
    # Tutorial 06's causal forward runs two K loops one after the other: their
    # rings take the same shared memory (with a barrier between), so a config
    # that fits once fits causal too (it took twice, 384 KiB, before).
    k = _bench_kernels()
    q = torch.empty(4, 32, 1024, 128, dtype=torch.float16)
    m = torch.empty(4, 32, 1024)
    descs = [TensorDescriptor(q, [4 * 32 * 1024, 128], [128, 1], [128, 128]) for _ in range(4)]
    options = {"target": "sm_90a", "num_warps": 8, "num_stages": 3}
    shared = {}
    for tma in (False, True):
        for stage in (1, 3):
            with tile.knobs.compilation.scope():
                tile.knobs.compilation.tma = tma
                compiled, _, _ = compile_for_args(
                    k.attention06_fwd.fn, (0.125, m, 4, 32, *descs),
                    dict(N_CTX=1024, HEAD_DIM=128, BLOCK_M=128, BLOCK_N=128, FP8_OUTPUT=False,
                         STAGE=stage, warp_specialize=False, IS_HOPPER=True), options)
            shared[tma, stage] = compiled.metadata["shared_bytes"]
    assert shared[False, 1] == shared[False, 3] <= 232448, shared
    # TMA rings add their barriers after everything else, 8 bytes a slot: q's
    # ring and the K and V rings of each loop (3 slots each).
    assert shared[True, 1] - shared[False, 1] == 7 * 8, shared
    assert shared[True, 3] - shared[False, 3] == 13 * 8 <= 232448 - shared[False, 3], shared


@tile.jit
def block_shape_compares(x, BM: tl.constexpr, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(x, [BM, BN], [BN, 1], [BM, BN])
    tl.static_assert(desc.block_shape == [BM, BN])  # Triton's block_shape is a list
    tl.static_assert(desc.block_shape == (BM, BN))
    tl.static_assert(desc.block_shape != [BN, BM])
    desc.store([0, 0], desc.load([0, 0]) + 1)


def test_block_shape_equals_a_list_as_in_triton() -> None:
    assert "tile.store" in tile.generate_ir(block_shape_compares, "*fp32", {"BM": 8, "BN": 32})
