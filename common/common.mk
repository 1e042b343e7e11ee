# Build rules shared by every step folder, its solution and any copy of one.
# A step's Makefile finds this folder and includes this file; `make` builds ./transpose.
#
#   make                 build for the GPU in this machine (-arch=native)
#   make SM=90           build for sm_90 instead; SM="80 90" builds for both
#   make run             build and run with the default size
#   make check           grade this folder: shapes, TODOs left, speed beside the solution
#   make hint            the next hint of this step's README, one tier at a time (N=2: hint 2
#                        again; N=0: start over)
#   make clean
#
# What a step's Makefile may set before including this file: SRC and BIN (transpose.cu,
# transpose), EXTRA (sources of its own, compiled with SRC),
# RANKS = yes (it runs across GPUs: it links the ranks' harness, common/ranks/), LDLIBS.

NVCC   ?= nvcc
SM     ?=
COMMON := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# SM= builds machine code for each architecture named and embeds PTX for the newest of them,
# which the driver compiles for any newer GPU. Without a GPU (a login node, CI) -arch=native
# has nothing to ask: build for sm_75 (Turing), the oldest architecture CUDA 13 builds for
# (12.x reaches back to sm_50); its embedded PTX also runs on every newer GPU.
ifneq ($(strip $(SM)),)
  ARCH := $(foreach s,$(SM),-gencode=arch=compute_$(s),code=sm_$(s)) \
          $(foreach n,$(lastword $(shell printf '%s\n' $(SM) | sort -n)),-gencode=arch=compute_$(n),code=compute_$(n))
else ifeq ($(shell nvidia-smi -L >/dev/null 2>&1 && echo gpu),gpu)
  ARCH := -arch=native
else
  ARCH := -arch=sm_75
endif

NVCCFLAGS ?= -O3 -lineinfo
INCLUDES  := -I$(COMMON) $(if $(RANKS),-I$(COMMON)/ranks)
include $(COMMON)/nccl.mk
FLAGS := $(NVCCFLAGS) $(ARCH) $(INCLUDES) $(if $(RANKS),$(NCCL_FLAGS)) -Xcompiler -fopenmp,-Wall

SRC ?= transpose.cu
BIN ?= transpose
.DEFAULT_GOAL := $(BIN)
LDLIBS ?=

# The harness is compiled once for a given compiler, flags and architectures, into libraries
# (harness.mk) that every folder built with the same ones links: a fresh make of the whole
# kit compiles it once, not once a folder. Their folder is named for the compiler's version
# and the flags, so make SM=80 after a default build gets its own. It lies in common/build/,
# or where common/ is not writable (a kit shared read-only) in this folder's .harness/.
# One make at a time builds a library folder (flock, where the machine has it), so folders
# built side by side (make -j, the tests) wait for the first. -B stays with the step (make -B
# rebuilds the step, not the harness: make clean at the top does that); -n and -s reach the
# harness's make too. -arch=native is named for the GPUs it builds for, so that nodes of
# different GPUs sharing one kit get libraries of their own.
NATIVE_CC     := $(if $(filter -arch=native,$(ARCH)),$(shell nvidia-smi --query-gpu=compute_cap \
                   --format=csv,noheader 2>/dev/null | sort -u))
HARNESS_FLAGS := $(NVCC) $(shell $(NVCC) --version 2>/dev/null | tail -n 1) $(NVCCFLAGS) $(ARCH) \
                 $(NATIVE_CC)
HARNESS_ROOT  ?= $(if $(shell test -w $(COMMON) && echo yes),$(COMMON)/build,.harness)
HARNESS_DIR   := $(HARNESS_ROOT)/$(firstword $(shell echo '$(HARNESS_FLAGS)' | cksum))
HARNESS_LIBS  := $(if $(RANKS),$(HARNESS_DIR)/libtk_ranks.a) $(HARNESS_DIR)/libtk.a
LOCK          := $(if $(shell command -v flock 2>/dev/null),flock $(HARNESS_ROOT)/.lock)

SUBMAKE_FLAGS := $(if $(findstring n,$(firstword -$(MAKEFLAGS))),-n) \
                 $(if $(findstring s,$(firstword -$(MAKEFLAGS))),-s)

$(HARNESS_LIBS): FORCE
	@mkdir -p $(HARNESS_DIR) && $(LOCK) env -u MAKEFLAGS -u MFLAGS $(MAKE) $(SUBMAKE_FLAGS) \
	    --no-print-directory -f $(COMMON)/harness.mk \
	    COMMON=$(COMMON) DIR=$(HARNESS_DIR) NVCC='$(NVCC)' HFLAGS='$(FLAGS)' LIB=$@

# The flags are a dependency: .BIN.flags holds the last build's, and is rewritten (so BIN is
# rebuilt) only when they change, as with make SM=80 after a default build.
STAMP := .$(BIN).flags
BUILD_FLAGS := $(NVCC) $(FLAGS) $(LDLIBS)
ifneq ($(BUILD_FLAGS),$(shell cat $(STAMP) 2>/dev/null))
  $(shell echo '$(BUILD_FLAGS)' >$(STAMP))
endif

$(BIN): $(SRC) $(wildcard *.cuh) $(EXTRA) $(HARNESS_LIBS) $(wildcard $(COMMON)/*.h) \
        $(if $(RANKS),$(wildcard $(COMMON)/ranks/*.h)) $(MAKEFILE_LIST) $(STAMP)
	$(NVCC) $(FLAGS) $(SRC) $(EXTRA) $(HARNESS_LIBS) -o $@ $(LDLIBS)

run: $(BIN)
	./$(BIN)

check:
	$(COMMON)/../scripts/grade/grade.sh .

hint:
	@$(COMMON)/../scripts/grade/hint.sh $(if $(filter 0,$(N)),--reset,$(if $(N),--tier $(N))) .

clean:
	rm -rf $(BIN) $(STAMP) .harness

FORCE:
.PHONY: run check hint clean FORCE
