//===- Assemble.cpp - PTX to cubin: ptxas or nvJitLink --------------------===//

#include "Assemble.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstring>
#include <mutex>

using namespace mlir::tile;
using llvm::SmallString;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// ptxas
//===----------------------------------------------------------------------===//

/// The ptxas to run, or an empty string with `error` set.
static std::string findPtxas(StringRef ptxas, StringRef toolkit,
                             StringRef toolkitGivenBy, std::string &error) {
  if (!ptxas.empty()) {
    if (llvm::sys::fs::can_execute(ptxas))
      return ptxas.str();
    error = "ptxas " + ptxas.str() + " is not an executable file";
    return "";
  }
  SmallString<256> inToolkit(toolkit);
  llvm::sys::path::append(inToolkit, "bin", "ptxas");
  if (!toolkit.empty() && llvm::sys::fs::can_execute(inToolkit))
    return inToolkit.str().str();
  // A toolkit that was asked for is the one used: a cubin from another
  // toolkit's ptxas is not what was asked for.
  if (!toolkitGivenBy.empty()) {
    error = "ptxas not found: " + inToolkit.str().str() +
            " does not exist or is not executable (the CUDA toolkit " +
            toolkit.str() + " comes from " + toolkitGivenBy.str() +
            "; set CUDA_HOME or --cuda-path to a CUDA toolkit)";
    return "";
  }
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  error = "ptxas not found in " + inToolkit.str().str() +
          " (the build's default CUDA toolkit) nor on PATH; set CUDA_HOME to "
          "a CUDA toolkit";
  return "";
}

AssembleResult mlir::tile::assembleWithPtxas(StringRef ptxasPath,
                                             StringRef toolkit,
                                             StringRef toolkitGivenBy,
                                             StringRef chip, StringRef ptx,
                                             bool lineInfo) {
  AssembleResult result;
  std::string ptxas =
      findPtxas(ptxasPath, toolkit, toolkitGivenBy, result.error);
  if (ptxas.empty())
    return result;
  result.assembler = "ptxas (" + ptxas + ")";
  SmallString<128> ptxPath, cubinPath, logPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tile", "ptx", fd, ptxPath)) {
    result.error = "cannot create a temporary file for ptxas";
    return result;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::sys::fs::createTemporaryFile("tile", "cubin", cubinPath);
  llvm::sys::fs::createTemporaryFile("tile", "log", logPath);
  std::string arch = "-arch=" + chip.str();
  llvm::SmallVector<StringRef> args{ptxas, arch};
  if (lineInfo)
    args.push_back(kLineInfoFlag);
  args.append({"-o", cubinPath, ptxPath});
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects);
  if (status == 0) {
    auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
    if (buffer) {
      result.cubin = (*buffer)->getBuffer().str();
      result.succeeded = true;
      if (auto log = llvm::MemoryBuffer::getFile(logPath))
        result.log = (*log)->getBuffer().str();
    } else {
      result.error = "cannot read the cubin ptxas wrote";
    }
  } else {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    result.error = "ptxas failed";
    if (log)
      result.error += ":\n" + (*log)->getBuffer().str();
  }
  llvm::sys::fs::remove(ptxPath);
  llvm::sys::fs::remove(cubinPath);
  llvm::sys::fs::remove(logPath);
  return result;
}

//===----------------------------------------------------------------------===//
// nvJitLink
//===----------------------------------------------------------------------===//

namespace {
/// The entry points of libnvJitLink.so (nvJitLink.h), resolved by name.
/// Every call returns an nvJitLinkResult; 0 is success.
struct NvJitLink {
  using Handle = void *;
  int (*create)(Handle *, uint32_t, const char **) = nullptr;
  int (*destroy)(Handle *) = nullptr;
  int (*addData)(Handle, int, const void *, size_t, const char *) = nullptr;
  int (*complete)(Handle) = nullptr;
  int (*cubinSize)(Handle, size_t *) = nullptr;
  int (*cubin)(Handle, void *) = nullptr;
  int (*errorLogSize)(Handle, size_t *) = nullptr;
  int (*errorLog)(Handle, char *) = nullptr;
  int (*infoLogSize)(Handle, size_t *) = nullptr; // optional
  int (*infoLog)(Handle, char *) = nullptr;       // optional
  int (*version)(unsigned *, unsigned *) = nullptr;
  std::string description;
};
} // namespace

/// The input kind of PTX text (nvJitLinkInputType NVJITLINK_INPUT_PTX).
static constexpr int kInputPTX = 2;

/// Looks up `name`, or its versioned spelling `__nameV` (nvJitLink 12.x
/// exports `__nvJitLinkCreate_12_0` and friends; 13.x also plain names).
template <typename Fn>
static bool resolve(llvm::sys::DynamicLibrary &library, StringRef name,
                    Fn &fn) {
  std::string plain = name.str();
  void *address = library.getAddressOfSymbol(plain.c_str());
  for (const char *suffix : {"_13_0", "_12_0"}) {
    if (address)
      break;
    std::string versioned = "__" + plain + suffix;
    address = library.getAddressOfSymbol(versioned.c_str());
  }
  fn = reinterpret_cast<Fn>(address);
  return address != nullptr;
}

/// nvJitLink loaded from `path` once per process; null with `error` set when
/// it cannot be loaded.
static const NvJitLink *loadNvJitLink(StringRef path, std::string &error) {
  static std::mutex mutex;
  static llvm::StringMap<NvJitLink> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(path);
  if (it != loaded.end())
    return &it->second;
  std::string message;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.str().c_str(),
                                                     &message);
  if (!library.isValid()) {
    error = "cannot load nvJitLink from " + path.str() + ": " + message;
    return nullptr;
  }
  NvJitLink api;
  bool ok = resolve(library, "nvJitLinkCreate", api.create) &&
            resolve(library, "nvJitLinkDestroy", api.destroy) &&
            resolve(library, "nvJitLinkAddData", api.addData) &&
            resolve(library, "nvJitLinkComplete", api.complete) &&
            resolve(library, "nvJitLinkGetLinkedCubinSize", api.cubinSize) &&
            resolve(library, "nvJitLinkGetLinkedCubin", api.cubin) &&
            resolve(library, "nvJitLinkGetErrorLogSize", api.errorLogSize) &&
            resolve(library, "nvJitLinkGetErrorLog", api.errorLog);
  if (!ok) {
    error = path.str() + " is not an nvJitLink library (an entry point is "
                         "missing)";
    return nullptr;
  }
  resolve(library, "nvJitLinkVersion", api.version); // optional (12.3+)
  if (!resolve(library, "nvJitLinkGetInfoLogSize", api.infoLogSize) ||
      !resolve(library, "nvJitLinkGetInfoLog", api.infoLog))
    api.infoLogSize = nullptr;
  unsigned major = 0, minor = 0;
  api.description = "nvJitLink";
  if (api.version && api.version(&major, &minor) == 0)
    api.description +=
        " " + std::to_string(major) + "." + std::to_string(minor);
  api.description += " (" + path.str() + ")";
  return &loaded.try_emplace(path, api).first->second;
}

AssembleResult mlir::tile::assembleWithNvJitLink(StringRef library,
                                                 StringRef chip, StringRef ptx,
                                                 bool lineInfo) {
  AssembleResult result;
  const NvJitLink *api = loadNvJitLink(library, result.error);
  if (!api)
    return result;
  result.assembler = api->description;
  std::string arch = "-arch=" + chip.str();
  const char *options[] = {arch.c_str(), kLineInfoFlag};
  NvJitLink::Handle handle = nullptr;
  int code = api->create(&handle, lineInfo ? 2 : 1, options);
  if (code != 0) {
    result.error = result.assembler + ": nvJitLinkCreate(" + arch +
                   ") failed with code " + std::to_string(code);
    return result;
  }
  // One of the handle's logs (empty where it has none).
  auto readLog = [&](int (*logSize)(NvJitLink::Handle, size_t *),
                     int (*readInto)(NvJitLink::Handle, char *)) {
    size_t size = 0;
    std::string log;
    if (logSize && logSize(handle, &size) == 0 && size > 1) {
      log.assign(size, '\0');
      if (readInto(handle, log.data()) == 0)
        log.resize(strnlen(log.c_str(), size));
      else
        log.clear();
    }
    return log;
  };
  auto fail = [&](const char *call, int code) {
    result.error = result.assembler + ": " + call + " failed with code " +
                   std::to_string(code);
    std::string log = readLog(api->errorLogSize, api->errorLog);
    if (!log.empty())
      result.error += ":\n" + log;
  };
  if ((code = api->addData(handle, kInputPTX, ptx.data(), ptx.size(),
                           "tile.ptx")) != 0) {
    fail("nvJitLinkAddData", code);
  } else if ((code = api->complete(handle)) != 0) {
    fail("nvJitLinkComplete", code);
  } else {
    size_t size = 0;
    if ((code = api->cubinSize(handle, &size)) != 0) {
      fail("nvJitLinkGetLinkedCubinSize", code);
    } else {
      result.cubin.resize(size);
      if ((code = api->cubin(handle, result.cubin.data())) != 0) {
        fail("nvJitLinkGetLinkedCubin", code);
      } else {
        result.succeeded = true;
        result.log = readLog(api->infoLogSize, api->infoLog);
      }
    }
  }
  api->destroy(&handle);
  return result;
}
