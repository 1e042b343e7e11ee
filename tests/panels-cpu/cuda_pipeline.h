/* The stand-in for CUDA's cuda_pipeline.h that step 7's panels include when panels-cpu.cpp runs
   them on the CPU: an asynchronous copy is a copy, done at once; committing and waiting do
   nothing. */
#pragma once
#include <cstring>

inline void __pipeline_memcpy_async(void *dst, const void *src, size_t bytes)
{
    std::memcpy(dst, src, bytes);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(int) {}
