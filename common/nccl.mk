# Whether NCCL 2.28 or newer is here: nccl.h with nccl_device.h, its device API, which step 10's
# stage (c) uses. HAVE_NCCL is 1 or empty; NCCL_INCLUDE, the folder it was found in. The top
# Makefile leaves the steps across GPUs out of the build without it. NCCL is a package of its
# own (libnccl-dev, pip's nvidia-nccl-cu12 or -cu13, a cluster's module): the build looks in
# NCCL_HOME first where it is set (an absolute path to a folder with include/ and lib/:
# make NCCL_HOME=/opt/nccl), then beside nvcc's headers and in the system's.
NCCL_HOME ?=
NVCC_INCLUDE := $(dir $(shell command -v nvcc 2>/dev/null))../include
NCCL_DIRS := $(if $(NCCL_HOME),$(NCCL_HOME)/include) $(NVCC_INCLUDE) /usr/include /usr/local/include
NCCL_INCLUDE := $(firstword $(foreach d,$(NCCL_DIRS),$(if $(wildcard $(d)/nccl.h),$(if $(wildcard $(d)/nccl_device.h),$(d)))))
HAVE_NCCL := $(if $(NCCL_INCLUDE),1)

# NCCL_FLAGS: what a build across GPUs adds (common.mk) where NCCL_HOME holds NCCL: its
# headers, its library, and an rpath so that the program finds the library when it runs.
# pip's wheel has libnccl.so.2 but no libnccl.so for -lnccl: there it is linked by file name.
NCCL_FLAGS :=
ifeq ($(NCCL_INCLUDE),$(NCCL_HOME)/include)
  NCCL_FLAGS := -I$(NCCL_HOME)/include -L$(NCCL_HOME)/lib -Xlinker -rpath,$(NCCL_HOME)/lib
  ifeq ($(wildcard $(NCCL_HOME)/lib/libnccl.so),)
    LDLIBS := $(patsubst -lnccl,-l:libnccl.so.2,$(LDLIBS))
  endif
endif
