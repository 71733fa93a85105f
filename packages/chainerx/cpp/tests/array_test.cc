#include "chainerx/array.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::ExpectAllClose;
using testing::MakeArray;
using testing::ToVector;

TEST(ArrayTest, Attributes) {
    Array a = Zeros(Shape{2, 3}, Dtype::kFloat32);
    EXPECT_EQ(a.shape(), (Shape{2, 3}));
    EXPECT_EQ(a.strides(), (Strides{12, 4}));
    EXPECT_EQ(a.ndim(), 2);
    EXPECT_EQ(a.dtype(), Dtype::kFloat32);
    EXPECT_EQ(a.GetTotalSize(), 6);
    EXPECT_EQ(a.GetNBytes(), 24);
    EXPECT_EQ(a.offset(), 0);
    EXPECT_TRUE(a.IsContiguous());
    EXPECT_EQ(a.device().name(), "native:0");
}

TEST(ArrayTest, LargeBuffersAreReusedAndSmallOnesStayCorrect) {
    // A freed large buffer serves the next request of the same size (the native device keeps it
    // rather than unmapping it); the new array gets its own values all the same.
    const void* first = nullptr;
    {
        Array a = Full(Shape{512, 256}, Scalar{1.0}, Dtype::kFloat32);
        first = a.raw_data();
    }
    Array b = Full(Shape{512, 256}, Scalar{2.0}, Dtype::kFloat32);
    EXPECT_EQ(b.raw_data(), first);
    Array c = Full(Shape{512, 256}, Scalar{3.0}, Dtype::kFloat32);  // b is alive: another buffer
    EXPECT_NE(c.raw_data(), b.raw_data());
    EXPECT_EQ(testing::ToVector<float>(b), std::vector<float>(512 * 256, 2.0F));
    EXPECT_EQ(testing::ToVector<float>(c), std::vector<float>(512 * 256, 3.0F));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.raw_data()) % 64, 0U);
}

TEST(ArrayTest, ViewsShareMemory) {
    Array a = MakeArray<int32_t>(Shape{2, 3}, {0, 1, 2, 3, 4, 5});
    Array t = a.Transpose();
    EXPECT_EQ(t.shape(), (Shape{3, 2}));
    EXPECT_FALSE(t.IsContiguous());
    EXPECT_EQ(t.data(), a.data());
    EXPECT_EQ(ToVector<int32_t>(t), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
    Array row = a.At({1});
    row += 10;  // writes through the view
    EXPECT_EQ(ToVector<int32_t>(a), (std::vector<int32_t>{0, 1, 2, 13, 14, 15}));
}

TEST(ArrayTest, CopyIsIndependent) {
    Array a = MakeArray<double>(Shape{2}, {1, 2});
    Array c = a.Copy();
    c += 1;
    ExpectAllClose(a, {1, 2});
    ExpectAllClose(c, {2, 3});
}

TEST(ArrayTest, AsTypeConvertsLikeNumPy) {
    Array a = MakeArray<double>(Shape{4}, {-1.7, 0, 0.5, 2.9});
    EXPECT_EQ(ToVector<int32_t>(a.AsType(Dtype::kInt32)), (std::vector<int32_t>{-1, 0, 0, 2}));
    EXPECT_EQ(ToVector<bool>(a.AsType(Dtype::kBool)), (std::vector<bool>{true, false, true, true}));
    ExpectAllClose(a.AsType(Dtype::kFloat16), {-1.7001953125, 0, 0.5, 2.900390625});
    EXPECT_EQ(a.AsType(Dtype::kFloat64, false).body(), a.body());
}

TEST(ArrayTest, ToDeviceCopiesBetweenDevices) {
    Array a = MakeArray<float>(Shape{2, 2}, {1, 2, 3, 4}).Transpose();
    Array b = a.ToDevice(GetDevice("native:1"));
    EXPECT_EQ(b.device().name(), "native:1");
    EXPECT_NE(b.data(), a.data());
    ExpectAllClose(b, {1, 3, 2, 4});
    EXPECT_EQ(a.ToDevice(a.device()).body(), a.body());
}

TEST(ArrayTest, InplaceOnGraphArrayIsRejected) {
    Array a = Zeros(Shape{2}, Dtype::kFloat32).RequireGrad();
    try {
        a += 1;
        FAIL() << "expected ChainerxError";
    } catch (const ChainerxError& e) {
        EXPECT_NE(std::string{e.what()}.find("in-place operation += on an array that is in a computational graph"),
                  std::string::npos);
    }
    Array stopped = a.AsGradStopped();
    stopped += 1;  // allowed: the view is outside the graph, and shares the memory
    ExpectAllClose(a, {1, 1});
}

TEST(ArrayTest, InplaceChecksDtypeAndShape) {
    Array i = Zeros(Shape{2}, Dtype::kInt32);
    EXPECT_THROW(i += 0.5, DtypeError);
    EXPECT_THROW(i += Zeros(Shape{3, 2}, Dtype::kInt32), DimensionError);
    i += Ones(Shape{2}, Dtype::kInt8);
    EXPECT_EQ(ToVector<int32_t>(i), (std::vector<int32_t>{1, 1}));
}

TEST(ArrayTest, ToStringShowsValuesAndMetadata) {
    Array a = MakeArray<float>(Shape{2, 2}, {0, 1.5, 2, 3});
    EXPECT_EQ(a.ToString(), "array([[0., 1.5], [2., 3.]], shape=(2, 2), dtype=float32, device='native:0')");
    EXPECT_EQ(MakeArray<bool>(Shape{1}, {true}).ToString(), "array([True], shape=(1,), dtype=bool, device='native:0')");
}

TEST(ArrayTest, FromDataWrapsMemoryWithoutCopy) {
    auto data = std::shared_ptr<void>{new double[4]{1, 2, 3, 4}, [](void* p) { delete[] static_cast<double*>(p); }};
    Array a = FromData(Shape{2}, Dtype::kFloat64, data, Strides{16}, 8);
    EXPECT_EQ(a.data(), data);
    ExpectAllClose(a, {2, 4});
    EXPECT_THROW(FromData(Shape{2}, Dtype::kFloat64, data, Strides{8, 8}), DimensionError);
}

}  // namespace
}  // namespace chainerx
