/* A fake libcuda.so.1 for testing tile.driver on a machine without a GPU.
 * It implements the entry points the driver uses and records each launch:
 * the grid, block, stream, the context current at the launch and the bytes
 * of every kernel parameter, whose sizes the test announces with
 * fake_set_param_sizes.
 *
 * Three physical devices, filtered and renumbered by CUDA_VISIBLE_DEVICES
 * as the real driver does: 0 "Fake H200" (9.0), 1 "Fake A100" (8.0),
 * 2 "Fake T4" (7.5). Modules and functions belong to the context current
 * when they were loaded; a launch of a function in another context fails
 * with CUDA_ERROR_INVALID_HANDLE, as a real one does.
 *
 * cuTensorMapEncodeTiled records its arguments and writes a map whose bytes
 * tell encodes apart (fake_get_encode reads them back); it fails with the
 * code fake_set_fail_encode gives, or INVALID_VALUE for a map that is not
 * 64-byte aligned. Launches count 128-byte parameters that are not 64-byte
 * aligned (fake_misaligned_maps). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static __thread int current_ctx =
    0; /* per thread, as CUDA: 0 none, else 1 + device */
static int ctx_sets = 0;
static int param_sizes[64];
static int num_params = 0;
static unsigned char record[2048];
static int misaligned_maps = 0;
static int record_len = 0;
static unsigned launch_dims[6];
static uint64_t launch_stream = 0;
static int launches = 0;
static int func_max_threads = 1024;
static int fail_launch = 0;

void fake_set_param_sizes(int n, const int *sizes) {
  num_params = n;
  memcpy(param_sizes, sizes, sizeof(int) * n);
}
int fake_get_record(unsigned char *out) {
  memcpy(out, record, record_len);
  return record_len;
}
void fake_get_dims(unsigned *out) {
  memcpy(out, launch_dims, sizeof launch_dims);
}
uint64_t fake_get_stream(void) { return launch_stream; }
int fake_launches(void) { return launches; }
int fake_ctx_sets(void) { return ctx_sets; }
static int ctx_gets = 0;
int fake_ctx_gets(void) { return ctx_gets; }
void fake_set_func_max_threads(int n) { func_max_threads = n; }
void fake_set_fail_launch(int code) { fail_launch = code; }

static const char *physical_names[] = {"Fake H200", "Fake A100", "Fake T4"};
static const int physical_major[] = {9, 8, 7}, physical_minor[] = {0, 0, 5};
static int visible[3] = {0, 1, 2};
static int num_visible = 3;
static int initialized = 0;
static int module_loads = 0;
static int last_launch_ctx = -1;

CUresult cuInit(unsigned flags) {
  if (flags)
    return 1;
  if (!initialized) {
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    if (env) { /* a comma-separated list of physical ids; stops at a bad one */
      num_visible = 0;
      const char *p = env;
      while (*p && num_visible < 3) {
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p || id < 0 || id > 2)
          break;
        visible[num_visible++] = (int)id;
        p = *end == ',' ? end + 1 : end;
        if (!*end)
          break;
      }
    }
    initialized = 1;
  }
  return 0;
}
int fake_module_loads(void) { return module_loads; }
static uint64_t last_function = 0;
uint64_t fake_last_function(void) { return last_function; }
int fake_last_launch_ctx(void) { return last_launch_ctx; }
int fake_current_ctx(void) { return current_ctx - 1; }
CUresult cuGetErrorName(CUresult e, const char **s) {
  switch (e) {
  case 1:
    *s = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 101:
    *s = "CUDA_ERROR_INVALID_DEVICE";
    return 0;
  case 400:
    *s = "CUDA_ERROR_INVALID_HANDLE";
    return 0;
  case 201:
    *s = "CUDA_ERROR_INVALID_CONTEXT";
    return 0;
  case 209:
    *s = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return 0;
  case 500:
    *s = "CUDA_ERROR_NOT_FOUND";
    return 0;
  case 700:
    *s = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return 0;
  case 701:
    *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return 0;
  default:
    *s = 0;
    return 1;
  }
}
CUresult cuGetErrorString(CUresult e, const char **s) {
  switch (e) {
  case 1:
    *s = "invalid argument";
    return 0;
  case 101:
    *s = "invalid device ordinal";
    return 0;
  case 400:
    *s = "invalid resource handle";
    return 0;
  case 201:
    *s = "invalid device context";
    return 0;
  case 209:
    *s = "no kernel image is available for execution on the device";
    return 0;
  case 500:
    *s = "named symbol not found";
    return 0;
  case 700:
    *s = "an illegal memory access was encountered";
    return 0;
  case 701:
    *s = "too many resources requested for launch";
    return 0;
  default:
    *s = 0;
    return 1;
  }
}
CUresult cuDeviceGetCount(int *n) {
  *n = num_visible;
  return 0;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  if (ordinal < 0 || ordinal >= num_visible)
    return 101; /* INVALID_DEVICE */
  *d = ordinal;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int dev) {
  strncpy(name, physical_names[visible[dev]], len);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
  switch (attr) {
  case 1:
    *v = 1024;
    return 0;
  case 5:
    *v = 2147483647;
    return 0;
  case 6:
  case 7:
    *v = 65535;
    return 0;
  case 16:
    *v = 132;
    return 0; /* SMs, as an H200's */
  case 75:
    *v = physical_major[visible[dev]];
    return 0;
  case 76:
    *v = physical_minor[visible[dev]];
    return 0;
  case 97:
    *v = 232448;
    return 0;
  default:
    return 1;
  }
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) {
  *ctx = (void *)(uintptr_t)(0x1000 + dev);
  return 0;
}
CUresult cuCtxGetCurrent(void **ctx) {
  ctx_gets++;
  *ctx = current_ctx ? (void *)(uintptr_t)(0x1000 + current_ctx - 1) : 0;
  return 0;
}
CUresult cuCtxSetCurrent(void *ctx) {
  current_ctx = ctx ? (int)((uintptr_t)ctx - 0x1000) + 1 : 0;
  ctx_sets++;
  return 0;
}
CUresult cuCtxGetDevice(int *dev) {
  if (!current_ctx)
    return 201;
  *dev = current_ctx - 1;
  return 0;
}
CUresult cuCtxSynchronize(void) { return fail_launch == 700 ? 700 : 0; }
CUresult cuStreamSynchronize(void *s) {
  (void)s;
  return 0;
}
/* Handles encode the context: module 0x2000 + 16 * ctx + (loads % 16),
   function +0x1000, so that modules of one context differ. */
CUresult cuModuleLoadData(void **mod, const void *image) {
  if (!current_ctx)
    return 201;
  if (memcmp(image, "BAD", 3) == 0)
    return 209;
  module_loads++;
  *mod =
      (void *)(uintptr_t)(0x2000 + 16 * (current_ctx - 1) + module_loads % 16);
  return 0;
}
CUresult cuModuleUnload(void *mod) {
  (void)mod;
  return 0;
}
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
  if (strcmp(name, "missing") == 0)
    return 500;
  *fn = (void *)((uintptr_t)mod + 0x1000);
  return 0;
}
static int function_ctx(void *f) { return (int)(((uintptr_t)f - 0x3000) / 16); }
CUresult cuFuncGetAttribute(int *v, int attr, void *fn) {
  (void)fn;
  if (attr == 0) {
    *v = func_max_threads;
    return 0;
  }
  return 1;
}
int func_dynamic_shared = 48 * 1024; /* what cuFuncSetAttribute allowed */
unsigned last_shared = 0; /* dynamic shared bytes of the last launch */
CUresult cuFuncSetAttribute(void *fn, int attr, int value) {
  (void)fn;
  if (attr != 8 || value > 232448)
    return 1;
  func_dynamic_shared = value;
  return 0;
}
int func_cache_config = 0; /* what cuFuncSetCacheConfig set: PREFER_NONE */
CUresult cuFuncSetCacheConfig(void *fn, int config) {
  (void)fn;
  if (config < 0 || config > 3)
    return 1;
  func_cache_config = config;
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  (void)extra;
  if (!current_ctx)
    return 201;
  if ((int)shared > func_dynamic_shared)
    return 1; /* INVALID_VALUE: not opted in */
  last_shared = shared;
  if (function_ctx(f) != current_ctx - 1)
    return 400; /* INVALID_HANDLE */
  last_launch_ctx = current_ctx - 1;
  last_function = (uintptr_t)f;
  if (fail_launch && fail_launch != 700)
    return fail_launch;
  launch_dims[0] = gx;
  launch_dims[1] = gy;
  launch_dims[2] = gz;
  launch_dims[3] = bx;
  launch_dims[4] = by;
  launch_dims[5] = bz;
  launch_stream = (uint64_t)(uintptr_t)stream;
  record_len = 0;
  for (int i = 0; params && i < num_params; i++) { /* NULL: no parameters */
    if (record_len + param_sizes[i] > (int)sizeof record)
      return 1;
    if (param_sizes[i] == 128 && (uintptr_t)params[i] % 64)
      misaligned_maps++;
    memcpy(record + record_len, params[i], param_sizes[i]);
    record_len += param_sizes[i];
  }
  launches++;
  return 0;
}

typedef struct {
  unsigned gx, gy, gz, bx, by, bz, shared;
  void *stream;
  void *attrs;
  unsigned num_attrs;
} FakeLaunchConfig;
static int launches_ex = 0;
int fake_launches_ex(void) { return launches_ex; }
CUresult cuLaunchKernelEx(const FakeLaunchConfig *c, void *f, void **params,
                          void **extra) {
  launches_ex++;
  return cuLaunchKernel(f, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->shared,
                        c->stream, params, extra);
}

/* Dynamic shared memory: what the last launch asked for and what the
   function was opted in to. */
unsigned fake_last_shared(void) { return last_shared; }
int fake_func_dynamic_shared(void) { return func_dynamic_shared; }
int fake_func_cache_config(void) { return func_cache_config; }

/* cuTensorMapEncodeTiled: what the last call got, and how many calls. */
typedef struct {
  int data_type;
  unsigned rank;
  uint64_t address;
  uint64_t dims[5], strides[4];
  unsigned box[5], element_strides[5];
  int interleave, swizzle, l2_promotion, oob_fill;
  unsigned char map[128]; /* what it wrote */
} FakeEncode;
static FakeEncode last_encode;
static int encodes = 0;
static int fail_encode = 0;
int fake_encodes(void) { return encodes; }
void fake_set_fail_encode(int code) { fail_encode = code; }
void fake_get_encode(FakeEncode *out) { *out = last_encode; }
int fake_misaligned_maps(void) { return misaligned_maps; }
CUresult cuTensorMapEncodeTiled(void *map, int data_type, unsigned rank,
                                void *address, const uint64_t *dims,
                                const uint64_t *strides, const unsigned *box,
                                const unsigned *element_strides, int interleave,
                                int swizzle, int l2_promotion, int oob_fill) {
  if ((uintptr_t)map % 64 || rank < 1 || rank > 5)
    return 1;
  encodes++;
  memset(&last_encode, 0, sizeof last_encode);
  last_encode.data_type = data_type;
  last_encode.rank = rank;
  last_encode.address = (uint64_t)(uintptr_t)address;
  memcpy(last_encode.dims, dims, rank * sizeof(uint64_t));
  memcpy(last_encode.strides, strides, (rank - 1) * sizeof(uint64_t));
  memcpy(last_encode.box, box, rank * sizeof(unsigned));
  memcpy(last_encode.element_strides, element_strides, rank * sizeof(unsigned));
  last_encode.interleave = interleave;
  last_encode.swizzle = swizzle;
  last_encode.l2_promotion = l2_promotion;
  last_encode.oob_fill = oob_fill;
  if (fail_encode)
    return fail_encode;
  /* The address, the dims, then a byte per call: each encode's map differs. */
  unsigned char *bytes = map;
  memset(bytes, 0, 128);
  memcpy(bytes, &last_encode.address, 8);
  memcpy(bytes + 8, dims, rank * sizeof(uint64_t));
  for (int i = 48; i < 128; i++)
    bytes[i] = (unsigned char)(encodes + i);
  memcpy(last_encode.map, bytes, 128);
  return 0;
}
