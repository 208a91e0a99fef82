//===- Compile.cpp - the whole compile, tile IR text to PTX/cubin ---------===//

#include "tile/Target/Compile.h"
#include "Assemble.h"
#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#ifndef TILE_DEFAULT_CUDA_TOOLKIT
#define TILE_DEFAULT_CUDA_TOOLKIT "/usr/local/cuda"
#endif

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::registerPipelineDependencies(DialectRegistry &registry) {
  // The dialects a kernel is written in and lowered to.
  registry.insert<TileDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  index::IndexDialect, ub::UBDialect, gpu::GPUDialect,
                  NVVM::NVVMDialect, LLVM::LLVMDialect>();
  // Inlining of func calls; the ConvertToLLVM patterns that
  // convert-gpu-to-nvvm takes from each dialect.
  func::registerInlinerExtension(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  // Translation to LLVM IR and serialization to PTX.
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

/// Tile IR to gpu.func kernels: clean-up, layouts, conversion.
static void buildTileToGPUPipeline(OpPassManager &pm, unsigned numWarps) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createTileHoistLoopReductions());
  TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = numWarps;
  pm.addPass(createTileAssignLayouts(layoutOptions));
  pm.addPass(createConvertTileToGPU());
}

/// gpu.func kernels to the LLVM and NVVM dialects, with a target attached.
static void buildGPUToNVVMPipeline(OpPassManager &pm, StringRef chip) {
  OpPassManager &gpuModule = pm.nest<gpu::GPUModuleOp>();
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  gpuModule.addPass(createSCFToControlFlowPass());
  gpuModule.addPass(createConvertGpuOpsToNVVMOps());
  gpuModule.addPass(createConvertNVVMToLLVMPass());
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  gpuModule.addPass(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = chip.str();
  targetOptions.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
}

void mlir::tile::buildTileToNVVMPipeline(OpPassManager &pm, StringRef chip,
                                         unsigned numWarps) {
  buildTileToGPUPipeline(pm, numWarps);
  buildGPUToNVVMPipeline(pm, chip);
}

namespace {
struct TileToNVVMPipelineOptions
    : public PassPipelineOptions<TileToNVVMPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target GPU"),
                           llvm::cl::init("sm_90")};
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("Warps per program instance"),
                            llvm::cl::init(4)};
};
} // namespace

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Lower tile kernels to the NVVM and LLVM dialects, ready for "
      "serialization to PTX",
      [](OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
        buildTileToNVVMPipeline(pm, options.chip, options.numWarps);
      });
}

std::string mlir::tile::getCudaToolkitPath(const CompileOptions &options) {
  if (!options.cudaToolkit.empty())
    return options.cudaToolkit;
  if (const char *home = std::getenv("CUDA_HOME"))
    if (*home)
      return home;
  return TILE_DEFAULT_CUDA_TOOLKIT;
}

//===----------------------------------------------------------------------===//
// Launch facts
//===----------------------------------------------------------------------===//

static std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Parameter names come from the argument locations a frontend gives
/// (`loc("x_ptr")` or a NameLoc around a file location).
static std::string argumentName(BlockArgument arg) {
  Location loc = arg.getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  return "arg" + std::to_string(arg.getArgNumber());
}

static std::vector<KernelInfo> collectKernelSignatures(ModuleOp module) {
  std::vector<KernelInfo> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    KernelInfo info;
    info.name = func.getName().str();
    for (BlockArgument arg : func.getArguments()) {
      KernelInfo::Param param;
      param.name = argumentName(arg);
      if (auto ptr = dyn_cast<PtrType>(arg.getType())) {
        param.type = "ptr";
        param.pointee = typeName(ptr.getPointeeType());
      } else {
        param.type = typeName(arg.getType());
      }
      info.params.push_back(param);
    }
    kernels.push_back(info);
  }
  return kernels;
}

static void collectLaunchFacts(ModuleOp module,
                               std::vector<KernelInfo> &kernels) {
  module.walk([&](gpu::GPUFuncOp func) {
    for (KernelInfo &info : kernels) {
      if (info.name != func.getName())
        continue;
      auto get = [&](StringRef name, unsigned fallback) -> unsigned {
        if (auto attr = func->getAttrOfType<IntegerAttr>(name))
          return attr.getInt();
        return fallback;
      };
      info.numWarps = get("tile.num_warps", info.numWarps);
      info.threads = get("tile.threads", info.threads);
      info.sharedBytes = get("tile.shared_bytes", 0);
    }
  });
}

std::string CompileResult::metadataJson() const {
  llvm::json::Array kernelArray;
  for (const KernelInfo &kernel : kernels) {
    llvm::json::Array params;
    for (const KernelInfo::Param &param : kernel.params) {
      llvm::json::Object object{{"name", param.name}, {"type", param.type}};
      if (!param.pointee.empty())
        object["pointee"] = param.pointee;
      params.push_back(std::move(object));
    }
    kernelArray.push_back(
        llvm::json::Object{{"name", kernel.name},
                           {"num_warps", kernel.numWarps},
                           {"threads", kernel.threads},
                           {"shared_bytes", kernel.sharedBytes},
                           {"params", std::move(params)}});
  }
  llvm::json::Object root{{"chip", chip}, {"kernels", std::move(kernelArray)}};
  if (!assembler.empty())
    root["assembler"] = assembler;
  if (!libdevice.empty())
    root["libdevice"] = libdevice;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return text;
}

//===----------------------------------------------------------------------===//
// The compile
//===----------------------------------------------------------------------===//

CompileResult mlir::tile::compileTileSource(StringRef source,
                                            StringRef bufferName,
                                            const CompileOptions &options) {
  CompileResult result;
  result.chip = options.chip;
  llvm::raw_string_ostream diagnostics(result.diagnostics);
  if (options.numWarps == 0 || options.numWarps > 32) {
    diagnostics << "error: num-warps must be from 1 to 32, not "
                << options.numWarps << "\n";
    return result;
  }

  DialectRegistry registry;
  registerPipelineDependencies(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return result;
  result.kernels = collectKernelSignatures(*module);
  if (result.kernels.empty()) {
    emitError(module->getLoc()) << "no kernel: a kernel is a public func.func";
    return result;
  }

  PassManager toGPU(&context);
  buildTileToGPUPipeline(toGPU, options.numWarps);
  if (failed(toGPU.run(*module)))
    return result;
  collectLaunchFacts(*module, result.kernels);

  PassManager toNVVM(&context);
  buildGPUToNVVMPipeline(toNVVM, options.chip);
  if (failed(toNVVM.run(*module)))
    return result;

  gpu::GPUModuleOp gpuModule;
  module->walk([&](gpu::GPUModuleOp op) { gpuModule = op; });
  if (!gpuModule) {
    emitError(module->getLoc()) << "lowering produced no GPU module";
    return result;
  }

  // LLVM IR, before libdevice is linked.
  {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(gpuModule, llvmContext, "tile_kernels");
    if (!llvmModule)
      return result;
    llvm::raw_string_ostream os(result.llvmIR);
    llvmModule->print(os, nullptr);
  }

  auto target = cast<gpu::TargetAttrInterface>(gpuModule.getTargetsAttr()[0]);
  // The toolkit directory is where libdevice is linked from
  // (<toolkit>/nvvm/libdevice/libdevice.10.bc).
  std::string toolkit = getCudaToolkitPath(options);
  SmallString<256> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (llvm::sys::fs::is_regular_file(libdevice))
    result.libdevice = libdevice.str().str();
  gpu::TargetOptions targetOptions(toolkit, {}, "", "",
                                   gpu::CompilationTarget::Assembly);
  std::optional<SmallVector<char, 0>> ptx =
      target.serializeToObject(gpuModule, targetOptions);
  if (!ptx) {
    emitError(gpuModule.getLoc()) << "serialization to PTX failed";
    return result;
  }
  result.ptx.assign(ptx->begin(), ptx->end());
  while (!result.ptx.empty() && result.ptx.back() == '\0')
    result.ptx.pop_back();

  if (options.emitCubin) {
    AssembleResult assembled =
        options.nvJitLink.empty()
            ? assembleWithPtxas(options.ptxas, toolkit, options.chip,
                                result.ptx)
            : assembleWithNvJitLink(options.nvJitLink, options.chip,
                                    result.ptx);
    result.assembler = assembled.assembler;
    if (!assembled.succeeded) {
      diagnostics << "error: " << assembled.error << "\n";
      return result;
    }
    result.cubin = std::move(assembled.cubin);
  }
  result.succeeded = true;
  return result;
}
