/* Minimal assertion helpers: a failed CHECK prints where and counts; the test exits non-zero. */
#ifndef VKSORT_TEST_MAIN_H
#define VKSORT_TEST_MAIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Whether test `name` runs: VKSORT_TEST_ONLY=a[,b...] runs only the tests whose names contain
 * one of the parts (unset or empty: every test). */
static inline int test_selected(const char *name)
{
    const char *only = getenv("VKSORT_TEST_ONLY");
    if (!only || !*only)
        return 1;
    char part[128];
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && len < sizeof part) {
            memcpy(part, p, len);
            part[len] = '\0';
            if (strstr(name, part))
                return 1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

static inline int test_summary(void)
{
    printf("%d checks, %d failed\n", test_checks_, test_failures_);
    return test_failures_ ? 1 : 0;
}

#endif
