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

NVCC   ?= nvcc
SM     ?=
COMMON := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# Without a GPU (a login node, CI) -arch=native has nothing to ask: build for the oldest
# architecture CUDA 13 supports; its embedded PTX also runs on every newer GPU.
ifneq ($(strip $(SM)),)
  ARCH := $(foreach s,$(SM),-gencode=arch=compute_$(s),code=sm_$(s))
else ifeq ($(shell nvidia-smi -L >/dev/null 2>&1 && echo gpu),gpu)
  ARCH := -arch=native
else
  ARCH := -arch=sm_75
endif

NVCCFLAGS ?= -O3 -lineinfo
FLAGS := $(NVCCFLAGS) $(ARCH) -I$(COMMON) -Xcompiler -fopenmp,-Wall
HARNESS := $(COMMON)/options.c $(COMMON)/matrix.c $(COMMON)/explain.c $(COMMON)/report.c \
           $(COMMON)/core.c $(COMMON)/harness.c $(COMMON)/flush.cu
HARNESS += $(EXTRA)       # a step's own additions (step 8: the ranks' harness)
HEADERS := $(wildcard $(COMMON)/*.h)

SRC ?= transpose.cu
BIN ?= transpose
LDLIBS ?=

# The flags are a dependency: .BIN.flags holds the last build's, and is rewritten (so BIN is
# rebuilt) only when they change, as with make SM=80 after a default build.
STAMP := .$(BIN).flags
BUILD_FLAGS := $(NVCC) $(FLAGS) $(LDLIBS)
ifneq ($(BUILD_FLAGS),$(shell cat $(STAMP) 2>/dev/null))
  $(shell echo '$(BUILD_FLAGS)' >$(STAMP))
endif

$(BIN): $(SRC) $(wildcard *.cuh) $(HARNESS) $(HEADERS) $(MAKEFILE_LIST) $(STAMP)
	$(NVCC) $(FLAGS) $(SRC) $(HARNESS) -o $@ $(LDLIBS)

run: $(BIN)
	./$(BIN)

check:
	$(COMMON)/../scripts/grade/grade.sh .

hint:
	@$(COMMON)/../scripts/grade/hint.sh $(if $(filter 0,$(N)),--reset,$(if $(N),--tier $(N))) .

clean:
	rm -f $(BIN) $(STAMP)

.PHONY: run check hint clean
