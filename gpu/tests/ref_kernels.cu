// CUDA C stand-ins for the examples/ kernels, same names and parameters, to test
// tile.driver and gpu/run_examples.py on the GPU before the compiler emits cubins:
//     bash gpu/tests/make_ref_artifacts.sh DIR   (nvcc -cubin, plus the JSON sidecars)
//     PYTHONPATH=python python3 gpu/run_examples.py --artifacts DIR
#include <cuda_fp16.h>
#include <math.h>

#define PID(a) ((int)blockIdx.a)

extern "C" __global__ void add_kernel(const float *x, const float *y, float *out, int n) {
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
    int o = PID(x) * 1024 + i;
    if (o < n) out[o] = x[o] + y[o];
  }
}

template <int BM, int BN>
__device__ void matrix_add(const float *x, const float *y, float *out, int M, int N, int sx,
                           int sy, int so) {
  for (int t = threadIdx.x; t < BM * BN; t += blockDim.x) {
    int r = PID(x) * BM + t / BN, c = PID(y) * BN + t % BN;
    if (r < M && c < N) out[r * so + c] = x[r * sx + c] + y[r * sy + c];
  }
}
extern "C" __global__ void matrix_add_16x32(const float *x, const float *y, float *o, int M, int N,
                                            int sx, int sy, int so) {
  matrix_add<16, 32>(x, y, o, M, N, sx, sy, so);
}
extern "C" __global__ void matrix_add_24x40(const float *x, const float *y, float *o, int M, int N,
                                            int sx, int sy, int so) {
  matrix_add<24, 40>(x, y, o, M, N, sx, sy, so);
}

extern "C" __global__ void matmul_naive(const float *a, const float *b, float *c, int M, int N,
                                        int sam, int sbk, int scm) {
  for (int t = threadIdx.x; t < 32 * 64; t += blockDim.x) {
    int r = PID(x) * 32 + t / 64, col = PID(y) * 64 + t % 64;
    if (r >= M || col >= N) continue;
    float acc = 0.f;
    for (int k = 0; k < 128; k++) acc += a[r * sam + k] * b[k * sbk + col];
    c[r * scm + col] = acc;
  }
}

extern "C" __global__ void softmax(float *out, const float *x, int so, int sx, int n) {
  if (threadIdx.x != 0) return;
  const float *row = x + PID(x) * sx;
  float m = -INFINITY, s = 0.f;
  for (int i = 0; i < n; i++) m = fmaxf(m, row[i]);
  for (int i = 0; i < n; i++) s += expf(row[i] - m);
  for (int i = 0; i < n; i++) out[PID(x) * so + i] = expf(row[i] - m) / s;
}

extern "C" __global__ void cumsum(float *out, const float *x, int so, int sx, int n) {
  if (threadIdx.x != 0) return;
  float s = 0.f;
  for (int i = 0; i < n; i++) { s += x[PID(x) * sx + i]; out[PID(x) * so + i] = s; }
}

extern "C" __global__ void reduce_2d(const float *x, float *s0, float *mx0, float *mn0, float *s1,
                                     float *mx1, float *mn1, int M, int N, int sx) {
  int tn = gridDim.y;
  for (int c = threadIdx.x; c < 64; c += blockDim.x) {
    int col = PID(y) * 64 + c;
    if (col >= N) continue;
    float s = 0.f, hi = -INFINITY, lo = INFINITY;
    for (int r = PID(x) * 32; r < PID(x) * 32 + 32 && r < M; r++) {
      float v = x[r * sx + col]; s += v; hi = fmaxf(hi, v); lo = fminf(lo, v);
    }
    s0[PID(x) * N + col] = s; mx0[PID(x) * N + col] = hi; mn0[PID(x) * N + col] = lo;
  }
  for (int rr = threadIdx.x; rr < 32; rr += blockDim.x) {
    int r = PID(x) * 32 + rr;
    if (r >= M) continue;
    float s = 0.f, hi = -INFINITY, lo = INFINITY;
    for (int col = PID(y) * 64; col < PID(y) * 64 + 64 && col < N; col++) {
      float v = x[r * sx + col]; s += v; hi = fmaxf(hi, v); lo = fminf(lo, v);
    }
    s1[r * tn + PID(y)] = s; mx1[r * tn + PID(y)] = hi; mn1[r * tn + PID(y)] = lo;
  }
}

extern "C" __global__ void rank3(const float *x, float *y, float *r, int A, int B, int C) {
  for (int t = threadIdx.x; t < 4 * 16; t += blockDim.x) {
    int a = PID(x) * 4 + t / 16, c = PID(z) * 16 + t % 16;
    if (a >= A || c >= C) continue;
    float s = 0.f;
    for (int b = PID(y) * 8; b < PID(y) * 8 + 8 && b < B; b++) {
      float v = x[(a * B + b) * C + c];
      y[(a * B + b) * C + c] = v * 2.f + 1.f;
      s += v;
    }
    r[(PID(y) * A + a) * C + c] = s;
  }
}

extern "C" __global__ void dot(const __half *a, const __half *b, float *c, int M, int N, int K,
                               int sam, int sbk, int scm) {
  for (int t = threadIdx.x; t < 32 * 64; t += blockDim.x) {
    int r = PID(x) * 32 + t / 64, col = PID(y) * 64 + t % 64;
    if (r >= M || col >= N) continue;
    float acc = 0.f;
    for (int k = 0; k < K && k < 16; k++)
      acc += __half2float(a[r * sam + k]) * __half2float(b[k * sbk + col]);
    c[r * scm + col] = acc;
  }
}
