//===- Compile.cpp - the whole compile, tile IR text to PTX/cubin ---------===//

#include "tile/Target/Compile.h"
#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ProgramStack.h"
#include "llvm/Support/SourceMgr.h"

#ifndef TILE_DEFAULT_CUDA_TOOLKIT
#define TILE_DEFAULT_CUDA_TOOLKIT "/usr/local/cuda"
#endif

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::registerCompileDependencies(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registry.insert<TileDialect>();
}

/// Tile IR to gpu.func kernels: clean-up, layouts, conversion.
static void buildTileToGPUPipeline(OpPassManager &pm, unsigned numWarps) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = numWarps;
  pm.addPass(createTileAssignLayouts(layoutOptions));
  pm.addPass(createConvertTileToGPU());
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

llvm::ArrayRef<llvm::StringRef> mlir::tile::getSupportedChips() {
  static const llvm::StringRef chips[] = {"sm_80", "sm_86", "sm_89", "sm_90",
                                          "sm_90a"};
  return chips;
}

std::optional<std::string> mlir::tile::checkChip(llvm::StringRef chip) {
  if (llvm::is_contained(getSupportedChips(), chip))
    return std::nullopt;
  // Upstream's NVVM target reads an uninitialized SM number for a chip that
  // is not `sm_<digits>` and crashes on an empty one, and LLVM would write
  // `.target <chip>` for anything: nothing else reaches them.
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "unsupported chip '";
  os.write_escaped(chip);
  os << "'; the supported chips are ";
  llvm::interleave(getSupportedChips(), os, ", ");
  os << " (sm_90a for Hopper-only instructions)";
  return message;
}

std::optional<std::string> mlir::tile::checkNumWarps(int64_t numWarps) {
  if (numWarps >= 1 && numWarps <= 32)
    return std::nullopt;
  return "num-warps must be from 1 to 32, not " + std::to_string(numWarps);
}

std::optional<std::string>
mlir::tile::checkCompileOptions(const CompileOptions &options) {
  if (auto error = checkChip(options.chip))
    return error;
  return checkNumWarps(options.numWarps);
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

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
  // PassPipelineRegistration offers no way to reject option values, so the
  // pipeline is registered with a builder that can fail.
  registerPassPipeline(
      "tile-to-nvvm",
      "Lower tile kernels to the NVVM and LLVM dialects, ready for "
      "serialization to PTX",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        TileToNVVMPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::optional<std::string> error = checkChip(options.chip);
        if (!error)
          error = checkNumWarps(options.numWarps);
        if (error)
          return errorHandler("tile-to-nvvm: " + *error);
        buildTileToNVVMPipeline(pm, options.chip, options.numWarps);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> printOptions) {
        printOptions(TileToNVVMPipelineOptions());
      });
}

CudaToolkit mlir::tile::getCudaToolkit(const CompileOptions &options) {
  if (!options.cudaToolkit.empty())
    return {options.cudaToolkit, "--cuda-path"};
  if (const char *home = std::getenv("CUDA_HOME"))
    if (*home)
      return {home, "CUDA_HOME"};
  return {TILE_DEFAULT_CUDA_TOOLKIT, "the build default"};
}

std::string mlir::tile::getCudaToolkitPath(const CompileOptions &options) {
  return getCudaToolkit(options).path;
}

//===----------------------------------------------------------------------===//
// Input limits
//===----------------------------------------------------------------------===//

LogicalResult mlir::tile::checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                                            MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') { // a string: skip to the closing quote
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') { // a comment
      i = std::min(text.find('\n', i), e);
    } else if (c == '-' && i + 1 < e && text[i + 1] == '>') { // `->`
      ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth <= kMaxNestingDepth)
        continue;
      auto [line, column] =
          sourceMgr.getLineAndColumn(SMLoc::getFromPointer(text.data() + i));
      return emitError(FileLineColLoc::get(
                 context, buffer->getBufferIdentifier(), line, column))
             << "nesting deeper than " << kMaxNestingDepth
             << " levels of brackets ( [ { < here; tile limits the nesting "
                "of its input because the parser, verifier and passes "
                "recurse over it";
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    }
  }
  return success();
}

OwningOpRef<ModuleOp>
mlir::tile::parseTileSource(const llvm::SourceMgr &sourceMgr,
                            MLIRContext *context) {
  if (failed(checkNestingDepth(sourceMgr, context)))
    return {};
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}

void mlir::tile::runWithLargeStack(llvm::function_ref<void()> body) {
  llvm::runOnNewStack(kCompileStackBytes, body);
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
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return text;
}

//===----------------------------------------------------------------------===//
// ptxas
//===----------------------------------------------------------------------===//

/// Assembles `ptx` for `chip` with the ptxas of `toolkit`; on failure
/// returns false with the reason in `error`.
static bool runPtxas(const CudaToolkit &toolkit, StringRef chip, StringRef ptx,
                     std::string &cubin, std::string &error) {
  SmallString<256> ptxas(toolkit.path);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  // No fallback to a ptxas on PATH: a cubin from another toolkit than the
  // one configured is not what was asked for.
  if (!llvm::sys::fs::can_execute(ptxas)) {
    error = "ptxas not found: " + ptxas.str().str() +
            " does not exist or is not executable (the CUDA toolkit " +
            toolkit.path + " comes from " + toolkit.origin +
            "; set CUDA_HOME or --cuda-path to a CUDA toolkit)";
    return false;
  }
  SmallString<128> ptxPath, cubinPath, logPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tile", "ptx", fd, ptxPath)) {
    error = "cannot create a temporary file for ptxas";
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::sys::fs::createTemporaryFile("tile", "cubin", cubinPath);
  llvm::sys::fs::createTemporaryFile("tile", "log", logPath);
  std::string arch = "-arch=" + chip.str();
  SmallVector<StringRef> args{ptxas, arch, "-o", cubinPath, ptxPath};
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects);
  bool ok = status == 0;
  if (ok) {
    auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
    if (buffer)
      cubin = (*buffer)->getBuffer().str();
    else
      ok = false, error = "cannot read the cubin ptxas wrote";
  } else {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    error = "ptxas failed";
    if (log)
      error += ":\n" + (*log)->getBuffer().str();
  }
  llvm::sys::fs::remove(ptxPath);
  llvm::sys::fs::remove(cubinPath);
  llvm::sys::fs::remove(logPath);
  return ok;
}

//===----------------------------------------------------------------------===//
// The compile
//===----------------------------------------------------------------------===//

/// The libdevice functions (`__nv_*`) the GPU module calls, if the toolkit
/// has no libdevice to resolve them: serialization would leave them as
/// unresolved `.extern .func` declarations in the PTX, which fail only when
/// the module is loaded.
static LogicalResult checkLibdevice(gpu::GPUModuleOp gpuModule,
                                    const CudaToolkit &toolkit) {
  SmallString<256> libdevice(toolkit.path);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (llvm::sys::fs::exists(libdevice))
    return success();
  for (auto func : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
    if (!func.isExternal() || !func.getName().starts_with("__nv_"))
      continue;
    return emitError(func.getLoc())
           << "the kernels call the libdevice function '" << func.getName()
           << "', but " << libdevice << " does not exist (the CUDA toolkit "
           << toolkit.path << " comes from " << toolkit.origin
           << "; set CUDA_HOME or --cuda-path to a CUDA toolkit)";
  }
  return success();
}

/// The compile, on the caller's choice of stack.
static void compile(StringRef source, StringRef bufferName,
                    const CompileOptions &options, CompileResult &result) {
  llvm::raw_string_ostream diagnostics(result.diagnostics);
  if (std::optional<std::string> error = checkCompileOptions(options)) {
    diagnostics << "error: " << *error << "\n";
    return;
  }

  DialectRegistry registry;
  registerCompileDependencies(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseTileSource(sourceMgr, &context);
  if (!module)
    return;
  // The lowering adds the GPU module beside the functions and reads back
  // the one it made: nothing else belongs at the top level.
  for (Operation &op : module->getBody()->getOperations()) {
    if (!isa<func::FuncOp>(op)) {
      emitError(op.getLoc())
          << "tile IR holds func.func kernels and device functions at the top "
             "level, not '"
          << op.getName() << "'";
      return;
    }
  }
  result.kernels = collectKernelSignatures(*module);
  if (result.kernels.empty()) {
    emitError(module->getLoc()) << "no kernel: a kernel is a public func.func";
    return;
  }
  // Before any pass, which may assume a kernel's interface.
  for (auto func : module->getOps<func::FuncOp>())
    if (func.isPublic() && failed(verifyKernelInterface(func)))
      return;

  PassManager toGPU(&context);
  buildTileToGPUPipeline(toGPU, options.numWarps);
  if (failed(toGPU.run(*module)))
    return;
  collectLaunchFacts(*module, result.kernels);

  PassManager toNVVM(&context);
  buildGPUToNVVMPipeline(toNVVM, options.chip);
  if (failed(toNVVM.run(*module)))
    return;

  gpu::GPUModuleOp gpuModule;
  module->walk([&](gpu::GPUModuleOp op) { gpuModule = op; });
  if (!gpuModule) {
    emitError(module->getLoc()) << "lowering produced no GPU module";
    return;
  }

  // LLVM IR, before libdevice is linked.
  {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(gpuModule, llvmContext, "tile_kernels");
    if (!llvmModule)
      return;
    llvm::raw_string_ostream os(result.llvmIR);
    llvmModule->print(os, nullptr);
  }

  CudaToolkit toolkit = getCudaToolkit(options);
  if (failed(checkLibdevice(gpuModule, toolkit)))
    return;
  auto target = cast<gpu::TargetAttrInterface>(gpuModule.getTargetsAttr()[0]);
  // The serializer needs the toolkit only for libdevice (checked above) and
  // reports a missing one as an error with the whole module attached: a PTX
  // without math calls needs no toolkit, and ptxas says so itself below.
  gpu::TargetOptions targetOptions(
      llvm::sys::fs::is_directory(toolkit.path) ? toolkit.path : "", {}, "", "",
      gpu::CompilationTarget::Assembly);
  std::optional<SmallVector<char, 0>> ptx =
      target.serializeToObject(gpuModule, targetOptions);
  if (!ptx) {
    emitError(gpuModule.getLoc()) << "serialization to PTX failed";
    return;
  }
  result.ptx.assign(ptx->begin(), ptx->end());
  while (!result.ptx.empty() && result.ptx.back() == '\0')
    result.ptx.pop_back();

  if (options.emitCubin) {
    std::string error;
    if (!runPtxas(toolkit, options.chip, result.ptx, result.cubin, error)) {
      diagnostics << "error: " << error << "\n";
      return;
    }
  }
  result.succeeded = true;
}

CompileResult mlir::tile::compileTileSource(StringRef source,
                                            StringRef bufferName,
                                            const CompileOptions &options) {
  CompileResult result;
  result.chip = options.chip;
  runWithLargeStack([&] { compile(source, bufferName, options, result); });
  return result;
}
