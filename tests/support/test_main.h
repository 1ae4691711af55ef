/* Minimal assertion helpers: a failed CHECK prints where and counts; the test exits non-zero. */
#ifndef VKSORT_TEST_MAIN_H
#define VKSORT_TEST_MAIN_H

#include <stdio.h>

static int test_failures_;
static int test_checks_;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        test_checks_++;                                                                \
        if (!(cond)) {                                                                 \
            test_failures_++;                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                              \
    } while (0)

#define CHECK_EQ(a, b)                                                                        \
    do {                                                                                      \
        test_checks_++;                                                                       \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                 \
        if (va_ != vb_) {                                                                     \
            test_failures_++;                                                                 \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__,     \
                    __LINE__, #a, va_, #b, vb_);                                              \
        }                                                                                     \
    } while (0)

#define RUN(fn)                                                       \
    do {                                                              \
        int before_ = test_failures_;                                 \
        fn();                                                         \
        printf("%s %s\n", test_failures_ == before_ ? "ok  " : "FAIL", #fn); \
        fflush(stdout);                                               \
    } while (0)

static inline int test_summary(void)
{
    printf("%d checks, %d failed\n", test_checks_, test_failures_);
    return test_failures_ ? 1 : 0;
}

#endif
