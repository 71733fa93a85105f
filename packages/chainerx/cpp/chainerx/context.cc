#include "chainerx/context.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <sstream>

#include "chainerx/error.h"
#include "chainerx/native/native_backend.h"

namespace chainerx {

struct Context::Plugin {
    void* handle;
};

Context::Context() { backprop_names_[0] = "<default>"; }

Context::~Context() {
    // Backends made by a plugin must be destroyed before their library is unloaded.
    backends_.clear();
    for (auto& plugin : plugins_) dlclose(plugin->handle);
}

void Context::AddBackendSearchPath(const std::string& dir) {
    std::lock_guard<std::mutex> lock{mutex_};
    search_paths_.push_back(dir);
}

Backend& Context::GetBackend(const std::string& backend_name) {
    std::lock_guard<std::mutex> lock{mutex_};
    auto it = backends_.find(backend_name);
    if (it != backends_.end()) return *it->second;
    std::shared_ptr<Backend> backend =
            backend_name == "native" ? std::make_shared<native::NativeBackend>(*this) : LoadPlugin(backend_name);
    Backend& ref = *backend;
    backends_.emplace(backend_name, std::move(backend));
    return ref;
}

std::shared_ptr<Backend> Context::LoadPlugin(const std::string& backend_name) {
    std::vector<std::string> dirs = search_paths_;
    if (const char* env = std::getenv("CHAINERX_BACKEND_PATH")) {
        std::stringstream ss{env};
        std::string dir;
        while (std::getline(ss, dir, ':')) {
            if (!dir.empty()) dirs.push_back(dir);
        }
    }
    std::string tried;
    for (const std::string& dir : dirs) {
        std::string path = dir + "/" + backend_name + ".so";
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            tried += "\n  " + path + ": " + dlerror();
            continue;
        }
        auto create = reinterpret_cast<Backend* (*)(Context*)>(dlsym(handle, CHAINERX_CREATE_BACKEND_SYMBOL));
        auto destroy = reinterpret_cast<void (*)(Backend*)>(dlsym(handle, CHAINERX_DESTROY_BACKEND_SYMBOL));
        if (create == nullptr || destroy == nullptr) {
            dlclose(handle);
            throw BackendError{"backend library ",
                               path,
                               " does not export ",
                               CHAINERX_CREATE_BACKEND_SYMBOL,
                               " and ",
                               CHAINERX_DESTROY_BACKEND_SYMBOL};
        }
        plugins_.push_back(std::make_unique<Plugin>(Plugin{handle}));
        // The plugin frees what it allocated, with its own deleter.
        return std::shared_ptr<Backend>{create(this), destroy};
    }
    throw BackendError{"backend '",
                       backend_name,
                       "' not found: it is not built in and no ",
                       backend_name,
                       ".so was found on the backend search path (CHAINERX_BACKEND_PATH)",
                       tried.empty() ? std::string{} : "; tried:" + tried};
}

Device& Context::GetDevice(const std::string& backend_name, int index) {
    return GetBackend(backend_name).GetDevice(index);
}

Device& Context::GetDevice(const std::string& device_name) {
    size_t colon = device_name.find(':');
    if (colon == std::string::npos) return GetDevice(device_name, 0);
    std::string backend_name = device_name.substr(0, colon);
    std::string index_str = device_name.substr(colon + 1);
    char* end = nullptr;
    long index = std::strtol(index_str.c_str(), &end, 10);
    if (backend_name.empty() || index_str.empty() || *end != '\0') {
        throw DeviceError{"invalid device specifier '", device_name,
                          "': expected '<backend>:<index>' such as 'native:0'"};
    }
    return GetDevice(backend_name, static_cast<int>(index));
}

BackpropId Context::MakeBackpropId(const std::string& name) {
    std::lock_guard<std::mutex> lock{mutex_};
    uint64_t ordinal = next_backprop_ordinal_++;
    backprop_names_[ordinal] = name;
    return BackpropId{*this, ordinal};
}

void Context::ReleaseBackpropId(const BackpropId& id) {
    std::lock_guard<std::mutex> lock{mutex_};
    if (id.ordinal() == 0) throw ContextError{"the default backprop id cannot be released"};
    backprop_names_.erase(id.ordinal());
}

void Context::CheckValidBackpropId(const BackpropId& id) const {
    if (&id.context() != this) throw ContextError{"backprop id ", id, " belongs to another context"};
    std::lock_guard<std::mutex> lock{mutex_};
    if (backprop_names_.count(id.ordinal()) == 0) {
        throw ContextError{"backprop id ", id.ordinal(), " was released: its backprop scope has ended"};
    }
}

std::string Context::GetBackpropName(const BackpropId& id) const {
    std::lock_guard<std::mutex> lock{mutex_};
    auto it = backprop_names_.find(id.ordinal());
    return it == backprop_names_.end() ? "<released>" : it->second;
}

std::ostream& operator<<(std::ostream& os, const BackpropId& id) {
    return os << "<BackpropId " << id.context().GetBackpropName(id) << ">";
}

namespace {

std::atomic<Context*>& GlobalDefaultContextSlot() {
    static Context builtin;
    static std::atomic<Context*> slot{&builtin};
    return slot;
}

thread_local Context* t_default_context = nullptr;

}  // namespace

Context& GetGlobalDefaultContext() {
    Context* context = GlobalDefaultContextSlot().load();
    if (context == nullptr) throw ContextError{"the global default context is not set"};
    return *context;
}

void SetGlobalDefaultContext(Context* context) { GlobalDefaultContextSlot().store(context); }

Context& GetDefaultContext() {
    if (t_default_context != nullptr) return *t_default_context;
    Context* global = GlobalDefaultContextSlot().load();
    if (global == nullptr) throw ContextError{"neither this thread's nor the global default context is set"};
    return *global;
}

void SetDefaultContext(Context* context) {
    t_default_context = context;
    SetDefaultDevice(nullptr);
}

ContextScope::ContextScope(Context& context) : previous_{t_default_context} { SetDefaultContext(&context); }

ContextScope::~ContextScope() { SetDefaultContext(previous_); }

Backend& GetBackend(const std::string& backend_name) { return GetDefaultContext().GetBackend(backend_name); }
Device& GetDevice(const std::string& device_name) { return GetDefaultContext().GetDevice(device_name); }

}  // namespace chainerx
