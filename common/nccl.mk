# Whether NCCL's header is here (beside nvcc's, or the system's): HAVE_NCCL is 1 or empty.
# The top Makefile leaves the steps across GPUs out of the build without it.
NVCC_INCLUDE := $(dir $(shell command -v nvcc 2>/dev/null))../include
HAVE_NCCL := $(if $(wildcard $(NVCC_INCLUDE)/nccl.h /usr/include/nccl.h /usr/local/include/nccl.h),1)
