#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "chainerx/backend.h"
#include "chainerx/backprop_id.h"
#include "chainerx/device.h"

// Entry points a plugin backend shared library exports (extern "C"):
//   chainerx::Backend* chainerx_create_backend(chainerx::Context* context);
//   void chainerx_destroy_backend(chainerx::Backend* backend);
// The library for backend "<name>" is "<dir>/<name>.so" for each dir of the context's search path
// (Context::AddBackendSearchPath, then the colon-separated CHAINERX_BACKEND_PATH variable).
#define CHAINERX_CREATE_BACKEND_SYMBOL "chainerx_create_backend"
#define CHAINERX_DESTROY_BACKEND_SYMBOL "chainerx_destroy_backend"

namespace chainerx {

// Owns the backends and the backprop ids. Most programs use the one global default context.
class Context {
public:
    Context();
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    // Returns the backend, loading a plugin on first use; throws BackendError if none is found.
    Backend& GetBackend(const std::string& backend_name);
    // Parses "<backend>:<index>" (or "<backend>", meaning index 0).
    Device& GetDevice(const std::string& device_name);
    Device& GetDevice(const std::string& backend_name, int index);

    void AddBackendSearchPath(const std::string& dir);

    BackpropId default_backprop_id() { return BackpropId{*this, 0}; }
    BackpropId MakeBackpropId(const std::string& name);
    void ReleaseBackpropId(const BackpropId& id);
    // Throws ContextError when the id was released or belongs to another context.
    void CheckValidBackpropId(const BackpropId& id) const;
    std::string GetBackpropName(const BackpropId& id) const;

private:
    struct Plugin;
    std::shared_ptr<Backend> LoadPlugin(const std::string& backend_name);

    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Backend>> backends_;
    std::vector<std::unique_ptr<Plugin>> plugins_;
    std::vector<std::string> search_paths_;
    std::map<uint64_t, std::string> backprop_names_;
    uint64_t next_backprop_ordinal_{1};
};

// The process-wide default context: a built-in one until SetGlobalDefaultContext replaces it.
// Throws ContextError when it was set to nullptr.
Context& GetGlobalDefaultContext();
void SetGlobalDefaultContext(Context* context);

// This thread's default context: the one SetDefaultContext (or a ContextScope) gave this thread,
// else the global default. Setting it resets the thread's default device; nullptr means "the
// global default".
Context& GetDefaultContext();
void SetDefaultContext(Context* context);

// Makes context this thread's default until the scope ends.
class ContextScope {
public:
    explicit ContextScope(Context& context);
    ~ContextScope();
    ContextScope(const ContextScope&) = delete;
    ContextScope& operator=(const ContextScope&) = delete;

private:
    Context* previous_;
};

// Shorthands on the default context.
Backend& GetBackend(const std::string& backend_name);
Device& GetDevice(const std::string& device_name);

// A backprop id that lives until the scope ends.
class BackpropScope {
public:
    explicit BackpropScope(const std::string& name, Context& context = GetDefaultContext())
        : id_{context.MakeBackpropId(name)} {}
    ~BackpropScope() { id_.context().ReleaseBackpropId(id_); }
    BackpropScope(const BackpropScope&) = delete;
    BackpropScope& operator=(const BackpropScope&) = delete;

    BackpropId GetBackpropId() const { return id_; }

private:
    BackpropId id_;
};

}  // namespace chainerx
