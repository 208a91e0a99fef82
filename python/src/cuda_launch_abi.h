/* The CUDA driver's launch ABI as cuda.h lays it out (CUDA 12 and later),
 * for code that reaches libcuda through function pointers and builds
 * without the toolkit's headers: tile's C launcher (launcher.c) and the
 * driver floor it is measured against (bench/launch_floor.c). */
#ifndef TILE_CUDA_LAUNCH_ABI_H
#define TILE_CUDA_LAUNCH_ABI_H

typedef int CUresult;
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_INVALID_HANDLE 400
typedef void *CUstream;
typedef void *CUfunction;
typedef void *CUcontext;
typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  void *attrs;
  unsigned numAttrs;
} CUlaunchConfig;

/* cuda.h's CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value. */
#define CU_LAUNCH_ATTRIBUTE_COOPERATIVE 2
typedef struct {
  int id;
  char pad[4];
  union {
    char pad[64];
    int cooperative;
  } value;
} CUlaunchAttribute;
_Static_assert(sizeof(CUlaunchAttribute) == 72, "cuda.h's CUlaunchAttribute");

typedef CUresult (*LaunchExFn)(const CUlaunchConfig *, CUfunction, void **,
                               void **);
typedef CUresult (*LaunchFn)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
typedef CUresult (*CtxSetCurrentFn)(CUcontext);
typedef CUresult (*CtxGetCurrentFn)(CUcontext *);

#endif /* TILE_CUDA_LAUNCH_ABI_H */
