# Whether NCCL 2.28 or newer is here (beside nvcc's headers, or the system's): nccl.h with
# nccl_device.h, its device API, which step 8's stage (c) uses. HAVE_NCCL is 1 or empty.
# The top Makefile leaves the steps across GPUs out of the build without it.
NVCC_INCLUDE := $(dir $(shell command -v nvcc 2>/dev/null))../include
NCCL_DIRS := $(NVCC_INCLUDE) /usr/include /usr/local/include
HAVE_NCCL := $(if $(strip $(foreach d,$(NCCL_DIRS),$(if $(wildcard $(d)/nccl.h),$(wildcard $(d)/nccl_device.h)))),1)
