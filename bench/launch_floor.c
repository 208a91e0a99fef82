/* The CUDA driver's own cost of a launch on this host: a one-block kernel
 * with a pointer and an int, launched from C with its arguments packed once,
 * so that what is timed is the driver call alone. It is the floor under any
 * Python launcher (tile's, Triton's, torch's) on the same machine.
 *
 * Needs only libcuda.so.1 (loaded at run time) and a C compiler; the PTX is
 * JIT-compiled by the driver, so no toolkit is needed where it runs. As a
 * program:
 *
 *     cc -O2 -o build/launch_floor bench/launch_floor.c -ldl
 *     build/launch_floor
 *
 * bench/launch_floor.py builds it as a shared library (-DLAUNCH_FLOOR_LIBRARY)
 * and loads it into a Python process after torch has made the device's
 * primary context current, so that the floor and the launchers are timed on
 * the same host at the same time (the host's cost drifts between processes,
 * and within one, by a microsecond): bench/profile_launch.py calls
 * launch_floor(), bench/run.py's launch row launch_floor_us() in its rounds.
 *
 * Prints microseconds per launch, median of REPEATS, for cuLaunchKernel,
 * cuLaunchKernelEx, and cuLaunchKernel after cuCtxGetCurrent (the cost of a
 * context check per launch, which tile's launcher makes only after the
 * driver refuses one), each `short` (SHORT launches after a
 * synchronize: the queue never fills) and `queued` (LAUNCHES launches). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../python/src/cuda_launch_abi.h"

typedef int CUdevice;
typedef void *CUmodule;
typedef unsigned long long CUdeviceptr;

enum { N = 128, SHORT = 200, LAUNCHES = 2000, REPEATS = 15 };

static const char kPtx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry add_one(.param .u64 x, .param .u32 n) {\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .f32 %f<3>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [x];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  setp.ge.u32 %p, %r2, %r1;\n"
    "  @%p bra done;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.u64 %rd2, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd2];\n"
    "  add.f32 %f2, %f1, 0f3F800000;\n"
    "  st.global.f32 [%rd2], %f2;\n"
    "done:\n"
    "  ret;\n"
    "}\n";

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
static CtxSetCurrentFn cuCtxSetCurrent;
static CtxGetCurrentFn cuCtxGetCurrent;
static CUresult (*cuCtxSynchronize)(void);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
static LaunchFn cuLaunchKernel;
static LaunchExFn cuLaunchKernelEx;

/* Set by the first failure (reported once): every entry point then returns
 * its failure value, so that a Python process calling them lives on. */
static int failed;

static void check(CUresult code, const char *call) {
  if (code != 0 && !failed) {
    fprintf(stderr, "launch_floor: %s failed with CUDA error %d\n", call, code);
    failed = 1;
  }
}

static void *symbol(void *lib, const char *name) {
  void *fn = dlsym(lib, name);
  if (!fn && !failed) {
    fprintf(stderr, "launch_floor: libcuda.so.1 has no %s\n", name);
    failed = 1;
  }
  return fn;
}

static CUfunction kernel;
static void *params[2];
static CUlaunchConfig config = {1, 1, 1, N, 1, 1, 0, NULL, NULL, 0};

static void launch_plain(void) {
  check(cuLaunchKernel(kernel, 1, 1, 1, N, 1, 1, 0, NULL, params, NULL),
        "cuLaunchKernel");
}

static void launch_ex(void) {
  check(cuLaunchKernelEx(&config, kernel, params, NULL), "cuLaunchKernelEx");
}

static void launch_plain_context(void) {
  CUcontext current;
  check(cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  launch_plain();
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median microseconds per launch of `count` launches after a synchronize. */
static double per_launch(void (*launch)(void), int count) {
  double samples[REPEATS];
  for (int i = 0; i < 50; i++)
    launch();
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  for (int r = 0; r < REPEATS; r++) {
    double t0 = now_us();
    for (int i = 0; i < count; i++)
      launch();
    samples[r] = (now_us() - t0) / count;
    check(cuCtxSynchronize(), "cuCtxSynchronize");
  }
  qsort(samples, REPEATS, sizeof samples[0], by_value);
  return samples[REPEATS / 2];
}

static CUdeviceptr x;
static long launched; /* each launch adds 1 to every element of x */

/* Loads libcuda, the kernel (on device 0's primary context, which torch has
 * made current where a Python process calls this) and x, once; 0 when
 * loaded. */
static int setup(void) {
  static int done;
  if (done || failed)
    return failed;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "launch_floor: %s\n", dlerror());
    return failed = 1;
  }
  cuInit = symbol(lib, "cuInit");
  cuDeviceGet = symbol(lib, "cuDeviceGet");
  cuDevicePrimaryCtxRetain = symbol(lib, "cuDevicePrimaryCtxRetain");
  cuCtxSetCurrent = symbol(lib, "cuCtxSetCurrent");
  cuCtxGetCurrent = symbol(lib, "cuCtxGetCurrent");
  cuCtxSynchronize = symbol(lib, "cuCtxSynchronize");
  cuModuleLoadData = symbol(lib, "cuModuleLoadData");
  cuModuleGetFunction = symbol(lib, "cuModuleGetFunction");
  cuMemAlloc = symbol(lib, "cuMemAlloc_v2");
  cuMemcpyDtoH = symbol(lib, "cuMemcpyDtoH_v2");
  cuMemsetD32 = symbol(lib, "cuMemsetD32_v2");
  cuLaunchKernel = symbol(lib, "cuLaunchKernel");
  cuLaunchKernelEx = symbol(lib, "cuLaunchKernelEx");
  if (failed)
    return 1;

  CUdevice device;
  CUcontext context;
  CUmodule module;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  check(cuModuleLoadData(&module, kPtx), "cuModuleLoadData");
  check(cuModuleGetFunction(&kernel, module, "add_one"), "cuModuleGetFunction");

  static unsigned n = N;
  check(cuMemAlloc(&x, N * sizeof(float)), "cuMemAlloc");
  check(cuMemsetD32(x, 0, N), "cuMemsetD32");
  params[0] = &x;
  params[1] = &n;
  done = !failed;
  return failed;
}

/* Whether every launch so far ran: 0 when x[0] counts them all. */
int launch_floor_verify(void) {
  if (setup())
    return 1;
  float first = -1;
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  check(cuMemcpyDtoH(&first, x, sizeof first), "cuMemcpyDtoH");
  if (failed)
    return 1;
  if (first != (float)launched) {
    fprintf(stderr, "launch_floor: x[0] is %.0f after %ld launches\n",
            (double)first, launched);
    return 1;
  }
  return 0;
}

/* bench/run.py's figure for C (bench/launch_floor.py): microseconds per
 * launch of `count` cuLaunchKernel calls and one synchronize after them, the
 * queue empty before them, as bench/run.py times each backend's
 * `kernel[grid](...)`; -1 after a failure. */
double launch_floor_us(int count) {
  if (setup())
    return -1;
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  double t0 = now_us();
  for (int i = 0; i < count; i++)
    launch_plain();
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  launched += count;
  return failed ? -1 : (now_us() - t0) / count;
}

/* Prints the three variants' figures; 0 when the launches ran. */
int launch_floor(void) {
  if (setup())
    return 1;
  struct {
    const char *name;
    void (*launch)(void);
  } variants[] = {
      {"C cuLaunchKernel", launch_plain},
      {"C cuLaunchKernelEx", launch_ex},
      {"C cuCtxGetCurrent+launch", launch_plain_context},
  };
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    double shortTime = per_launch(variants[v].launch, SHORT);
    double queued = per_launch(variants[v].launch, LAUNCHES);
    if (failed)
      return 1;
    printf("%-28s queued %6.2f   short %6.2f\n", variants[v].name, queued,
           shortTime);
    fflush(stdout);
    launched += 2 * 50 + (long)REPEATS * (SHORT + LAUNCHES);
  }
  return launch_floor_verify();
}

#ifndef LAUNCH_FLOOR_LIBRARY
int main(void) { return launch_floor(); }
#endif
