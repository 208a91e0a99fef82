/*===- tile-c/Compile.h - C API: compile tile IR to PTX and cubins -*- C
-*-===*\
|*                                                                            *|
|* One call takes tile IR text and options and returns PTX, a cubin, LLVM IR  *|
|* and the launch facts (JSON). Errors come back as diagnostics text, never   *|
|* printed and never fatal. The Python frontend uses this entry point.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_COMPILE_H
#define TILE_C_COMPILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TILE_CAPI_EXPORTED __declspec(dllexport)
#else
#define TILE_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

typedef struct TileCompileResult TileCompileResult;

/** Compiles tile IR text of `irSize` bytes. `chip` names the GPU, one of
 *  tileSupportedChips() (NULL means "sm_90"; any other string, "" included,
 *  must be a supported chip), `numWarps` the warps per program instance (a
 *  power of two from 1 to 32), and `emitCubin` whether to run ptxas.
 *  `bufferName` (may be NULL) names the source in diagnostics. Invalid
 *  options and input give a failed result with diagnostics; never returns
 *  NULL, never aborts. */
TILE_CAPI_EXPORTED TileCompileResult *tileCompile(const char *irText,
                                                  size_t irSize,
                                                  const char *chip,
                                                  int numWarps, int emitCubin);

/** As tileCompile, naming the source buffer and the CUDA toolkit (NULL:
 *  $CUDA_HOME or the build's default). */
TILE_CAPI_EXPORTED TileCompileResult *
tileCompileWithOptions(const char *irText, size_t irSize,
                       const char *bufferName, const char *chip, int numWarps,
                       int emitCubin, const char *cudaToolkit);

/** Everything a compile can be told. Zero-initialize it and set what you
 *  need; NULL strings and 0 ints mean the defaults of tileCompile. */
typedef struct TileCompileOptions {
  /** Names the source in diagnostics. */
  const char *bufferName;
  /** The GPU, one of tileSupportedChips() (NULL: "sm_90"; "" is an
   *  error). */
  const char *chip;
  /** Warps per program instance, a power of two from 1 to 32 (0: 4). */
  int numWarps;
  /** Whether to assemble a cubin. */
  int emitCubin;
  /** Directory holding nvvm/libdevice/libdevice.10.bc (and bin/ptxas): a
   *  CUDA toolkit or an NVIDIA wheel's root. NULL: $CUDA_HOME or the build's
   *  default. One given here or in $CUDA_HOME must hold what is used. */
  const char *cudaToolkit;
  /** A ptxas executable (NULL: the toolkit's; only for the build's default
   *  toolkit, else the first on PATH). */
  const char *ptxas;
  /** A libnvJitLink.so to assemble with in-process; wins over ptxas. */
  const char *nvJitLink;
  /** Loop iterations whose dot operands load at once, Triton's num_stages
   *  (0: 3; 1: no software pipelining). */
  int numStages;
  /** Nonzero: no line table in the PTX and the cubin (Triton's
   *  knobs.compilation.disable_line_info). */
  int disableLineInfo;
  /** Nonzero: a float multiply never fuses with an add into an fma
   *  (Triton's enable_fp_fusion=False). */
  int disableFpFusion;
  /** Nonzero: libdevice's functions keep subnormals (Triton's
   *  enable_reflect_ftz=False); by default they flush them to zero. */
  int disableReflectFtz;
  /** The most registers a kernel's thread may use, 1 to 255 (Triton's
   *  maxnreg; PTX .maxnreg); 0: no limit. */
  int maxRegisters;
  /** A libdevice bitcode file to link instead of the toolkit's (Triton's
   *  extern_libs={"libdevice": path}); NULL: the toolkit's. */
  const char *libdevice;
} TileCompileOptions;

/** Compiles tile IR text of `irSize` bytes with `options` (may be NULL).
 *  Never returns NULL. The "metadata" output names the assembler and the
 *  libdevice used ("assembler", "libdevice"). */
TILE_CAPI_EXPORTED TileCompileResult *
tileCompileWith(const char *irText, size_t irSize,
                const TileCompileOptions *options);

/** 1 if the compile succeeded, 0 otherwise. */
TILE_CAPI_EXPORTED int tileCompileSucceeded(const TileCompileResult *result);

/** One output: "diagnostics", "llir", "ptx", "cubin", "metadata" (JSON) or
 *  "cubin_without_limit" (the cubin for grids whose blocks all fit at once,
 *  empty where the compile made none; see "resident_blocks_without_limit"
 *  in the metadata).
 *  The bytes stay valid until the result is destroyed; `size` (may be NULL)
 *  receives their length. Text outputs are also NUL-terminated. Returns NULL
 *  for an unknown name. */
TILE_CAPI_EXPORTED const char *
tileCompileResultGet(const TileCompileResult *result, const char *what,
                     size_t *size);

TILE_CAPI_EXPORTED void tileCompileResultDestroy(TileCompileResult *result);

/** The compiler's version string, part of any cache key. */
TILE_CAPI_EXPORTED const char *tileCompilerVersion(void);

/** The chips tileCompile accepts, comma-separated ("sm_80,...,sm_90a"). */
TILE_CAPI_EXPORTED const char *tileSupportedChips(void);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_COMPILE_H */
