/* A fake libcuda.so.1 for testing tile.driver on a machine without a GPU.
 * It implements the entry points the driver uses and records each launch:
 * the grid, block, stream and the bytes of every kernel parameter, whose
 * sizes the test announces with fake_set_param_sizes. */
#include <stdint.h>
#include <string.h>

typedef int CUresult;
static __thread int current_ctx = 0;   /* per thread, as CUDA: 0 none, else 1 + device */
static int ctx_sets = 0;
static int param_sizes[64];
static int num_params = 0;
static unsigned char record[1024];
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
int fake_get_record(unsigned char *out) { memcpy(out, record, record_len); return record_len; }
void fake_get_dims(unsigned *out) { memcpy(out, launch_dims, sizeof launch_dims); }
uint64_t fake_get_stream(void) { return launch_stream; }
int fake_launches(void) { return launches; }
int fake_ctx_sets(void) { return ctx_sets; }
void fake_set_func_max_threads(int n) { func_max_threads = n; }
void fake_set_fail_launch(int code) { fail_launch = code; }

CUresult cuInit(unsigned flags) { return flags ? 1 : 0; }
CUresult cuGetErrorName(CUresult e, const char **s) {
  switch (e) {
  case 1: *s = "CUDA_ERROR_INVALID_VALUE"; return 0;
  case 201: *s = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
  case 209: *s = "CUDA_ERROR_NO_BINARY_FOR_GPU"; return 0;
  case 500: *s = "CUDA_ERROR_NOT_FOUND"; return 0;
  case 700: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
  case 701: *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; return 0;
  default: *s = 0; return 1;
  }
}
CUresult cuGetErrorString(CUresult e, const char **s) {
  switch (e) {
  case 1: *s = "invalid argument"; return 0;
  case 201: *s = "invalid device context"; return 0;
  case 209: *s = "no kernel image is available for execution on the device"; return 0;
  case 500: *s = "named symbol not found"; return 0;
  case 700: *s = "an illegal memory access was encountered"; return 0;
  case 701: *s = "too many resources requested for launch"; return 0;
  default: *s = 0; return 1;
  }
}
CUresult cuDeviceGetCount(int *n) { *n = 2; return 0; }
CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
CUresult cuDeviceGetName(char *name, int len, int dev) {
  strncpy(name, dev ? "Fake GPU 1" : "Fake H200", len);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
  switch (attr) {
  case 1: *v = 1024; return 0;
  case 5: *v = 2147483647; return 0;
  case 6: case 7: *v = 65535; return 0;
  case 75: *v = 9; return 0;
  case 76: *v = 0; return 0;
  default: return 1;
  }
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = (void *)(uintptr_t)(0x1000 + dev); return 0; }
CUresult cuCtxGetCurrent(void **ctx) { *ctx = current_ctx ? (void *)(uintptr_t)(0x1000 + current_ctx - 1) : 0; return 0; }
CUresult cuCtxSetCurrent(void *ctx) { current_ctx = ctx ? (int)((uintptr_t)ctx - 0x1000) + 1 : 0; ctx_sets++; return 0; }
CUresult cuCtxGetDevice(int *dev) { if (!current_ctx) return 201; *dev = current_ctx - 1; return 0; }
CUresult cuCtxSynchronize(void) { return fail_launch == 700 ? 700 : 0; }
CUresult cuStreamSynchronize(void *s) { (void)s; return 0; }
CUresult cuModuleLoadData(void **mod, const void *image) {
  if (memcmp(image, "BAD", 3) == 0) return 209;
  *mod = (void *)0x2000; return 0;
}
CUresult cuModuleUnload(void *mod) { (void)mod; return 0; }
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
  (void)mod;
  if (strcmp(name, "missing") == 0) return 500;
  *fn = (void *)0x3000; return 0;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *fn) {
  (void)fn;
  if (attr == 0) { *v = func_max_threads; return 0; }
  return 1;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void *stream,
                        void **params, void **extra) {
  (void)f; (void)shared; (void)extra;
  if (!current_ctx) return 201;
  if (fail_launch && fail_launch != 700) return fail_launch;
  launch_dims[0] = gx; launch_dims[1] = gy; launch_dims[2] = gz;
  launch_dims[3] = bx; launch_dims[4] = by; launch_dims[5] = bz;
  launch_stream = (uint64_t)(uintptr_t)stream;
  record_len = 0;
  for (int i = 0; i < num_params; i++) {
    memcpy(record + record_len, params[i], param_sizes[i]);
    record_len += param_sizes[i];
  }
  launches++;
  return 0;
}
