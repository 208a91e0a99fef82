// A CUDA toolkit that has libdevice but no bin/ptxas (such as the root of
// NVIDIA's nvvm wheel) gives PTX, math calls linked; a cubin is then an error
// naming the missing ptxas and where the toolkit came from, never a cubin
// from another ptxas found on PATH (this machine's toolkit is on it in CI).
// REQUIRES: ptxas
// RUN: rm -rf %t.nvvm && mkdir -p %t.nvvm/nvvm/libdevice
// RUN: cp %cuda/nvvm/libdevice/libdevice.10.bc %t.nvvm/nvvm/libdevice/
// RUN: tile-translate --tile-to-ptx --cuda-path=%t.nvvm %s | FileCheck %s --check-prefix=PTX
// RUN: not tile-translate --tile-to-cubin --cuda-path=%t.nvvm %s -o %t.cubin 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: env PATH=%cuda/bin:$PATH CUDA_HOME=%t.nvvm not tile-translate --tile-to-cubin %s -o %t.cubin 2>&1 | FileCheck %s --check-prefix=HOME
// RUN: test ! -e %t.cubin

// PTX: .visible .entry sine(
// PTX-NOT: .extern .func __nv_sinf
// FLAG: error: ptxas not found: {{.*}}.nvvm/bin/ptxas does not exist or is not executable (the CUDA toolkit {{.*}}.nvvm comes from --cuda-path; set CUDA_HOME or --cuda-path to a CUDA toolkit)
// FLAG-NOT: error
// HOME: error: ptxas not found: {{.*}}.nvvm/bin/ptxas does not exist or is not executable (the CUDA toolkit {{.*}}.nvvm comes from CUDA_HOME; set CUDA_HOME or --cuda-path to a CUDA toolkit)
func.func @sine(%p: !tile.ptr<f32>) {
  %v = tile.load %p : !tile.ptr<f32>
  %s = math.sin %v : f32
  tile.store %p, %s : !tile.ptr<f32>
  return
}
