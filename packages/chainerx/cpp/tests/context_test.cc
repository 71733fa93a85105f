#include "chainerx/context.h"

#include <gtest/gtest.h>

#include <thread>

#include "chainerx/routines/creation.h"
#include "chainerx/routines/math.h"
#include "testing.h"

namespace chainerx {
namespace {

TEST(ContextTest, NativeBackendAndDevices) {
    Context context;
    Backend& native = context.GetBackend("native");
    EXPECT_EQ(native.GetName(), "native");
    EXPECT_EQ(&context.GetBackend("native"), &native);
    Device& d0 = context.GetDevice("native:0");
    EXPECT_EQ(d0.name(), "native:0");
    EXPECT_EQ(&d0, &native.GetDevice(0));
    EXPECT_EQ(&context.GetDevice("native"), &d0);
    EXPECT_EQ(context.GetDevice("native:1").index(), 1);
    EXPECT_EQ(&d0.context(), &context);
}

TEST(ContextTest, BadSpecifiersAndIndices) {
    Context context;
    EXPECT_THROW(context.GetDevice("native:x"), DeviceError);
    EXPECT_THROW(context.GetDevice(":0"), DeviceError);
    try {
        context.GetDevice("native:99");
        FAIL() << "expected DeviceError";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string{e.what()}.find("device index 99 is out of range for backend 'native'"),
                  std::string::npos);
    }
    try {
        context.GetBackend("nonexistent");
        FAIL() << "expected BackendError";
    } catch (const BackendError& e) {
        EXPECT_NE(std::string{e.what()}.find("backend 'nonexistent' not found"), std::string::npos);
    }
}

TEST(ContextTest, DefaultDeviceIsPerThreadAndScoped) {
    Device& native1 = GetDevice("native:1");
    EXPECT_EQ(GetDefaultDevice().name(), "native:0");
    {
        DeviceScope scope{native1};
        EXPECT_EQ(&GetDefaultDevice(), &native1);
        EXPECT_EQ(Zeros(Shape{2}, Dtype::kFloat32).device().name(), "native:1");
        std::string other_thread;
        std::thread t{[&other_thread] { other_thread = GetDefaultDevice().name(); }};
        t.join();
        EXPECT_EQ(other_thread, "native:0");
    }
    EXPECT_EQ(GetDefaultDevice().name(), "native:0");
}

TEST(ContextTest, GlobalAndThreadDefaultContexts) {
    Context& builtin = GetGlobalDefaultContext();
    EXPECT_EQ(&GetDefaultContext(), &builtin);
    Context mine;
    Context other;
    SetDefaultContext(&mine);
    EXPECT_EQ(&GetDefaultContext(), &mine);
    EXPECT_EQ(&GetDefaultDevice().context(), &mine);  // the default device follows the context
    Context* seen_by_other_thread = nullptr;
    std::thread t{[&seen_by_other_thread] { seen_by_other_thread = &GetDefaultContext(); }};
    t.join();
    EXPECT_EQ(seen_by_other_thread, &builtin);  // other threads keep the global default
    {
        ContextScope scope{other};
        EXPECT_EQ(&GetDefaultContext(), &other);
        EXPECT_EQ(&GetDevice("native:1").context(), &other);
    }
    EXPECT_EQ(&GetDefaultContext(), &mine);
    SetDefaultContext(nullptr);
    EXPECT_EQ(&GetDefaultContext(), &builtin);

    SetGlobalDefaultContext(nullptr);
    EXPECT_THROW(GetGlobalDefaultContext(), ContextError);
    EXPECT_THROW(GetDefaultContext(), ContextError);
    SetDefaultContext(&mine);
    EXPECT_EQ(&GetDefaultContext(), &mine);
    SetDefaultContext(nullptr);
    SetGlobalDefaultContext(&other);
    EXPECT_EQ(&GetDefaultContext(), &other);
    SetGlobalDefaultContext(&builtin);
    EXPECT_EQ(&GetDefaultDevice().context(), &builtin);
}

TEST(ContextTest, BackpropIdsAreNamedAndReleased) {
    Context context;
    BackpropId id = context.MakeBackpropId("outer");
    EXPECT_EQ(context.GetBackpropName(id), "outer");
    EXPECT_NE(id, context.default_backprop_id());
    context.CheckValidBackpropId(id);
    context.ReleaseBackpropId(id);
    EXPECT_THROW(context.CheckValidBackpropId(id), ContextError);
    EXPECT_THROW(context.ReleaseBackpropId(context.default_backprop_id()), ContextError);
}

TEST(PluginBackendTest, LoadsFromSearchPathByName) {
    Context context;
    context.AddBackendSearchPath(CHAINERX_TEST_BACKEND_DIR);
    Backend& backend = context.GetBackend("test_backend");
    EXPECT_EQ(backend.GetName(), "test_backend");
    EXPECT_EQ(backend.GetDeviceCount(), 2);
    Device& device = context.GetDevice("test_backend:1");
    EXPECT_EQ(device.name(), "test_backend:1");
    EXPECT_THROW(context.GetDevice("test_backend:2"), DeviceError);
}

TEST(PluginBackendTest, ComputesAndTransfersWithNative) {
    GetDefaultContext().AddBackendSearchPath(CHAINERX_TEST_BACKEND_DIR);
    Device& plugin_device = GetDevice("test_backend:0");
    Array a = testing::MakeArray<double>(Shape{3}, {1, 2, 3}).ToDevice(plugin_device);
    EXPECT_EQ(a.device().name(), "test_backend:0");
    Array b = Multiply(a, a);
    EXPECT_EQ(&b.device(), &plugin_device);
    Array back = b.ToDevice(GetDevice("native:0"));
    testing::ExpectAllClose(back, {1, 4, 9});
    // Mixing devices is an error that names both.
    Array native = testing::MakeArray<double>(Shape{3}, {1, 1, 1});
    try {
        Add(a, native);
        FAIL() << "expected DeviceError";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string{e.what()}.find("test_backend:0 and native:0"), std::string::npos);
    }
}

TEST(PluginBackendTest, GradientsFlowAcrossDevices) {
    GetDefaultContext().AddBackendSearchPath(CHAINERX_TEST_BACKEND_DIR);
    Array x = testing::MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array y = Square(x.ToDevice(GetDevice("test_backend:1")));
    Backward({Sum(y)});
    EXPECT_EQ(x.GetGrad()->device().name(), "native:0");
    testing::ExpectAllClose(*x.GetGrad(), {2, 4});
}

}  // namespace
}  // namespace chainerx
