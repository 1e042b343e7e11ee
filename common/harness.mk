# The harness as libraries, for one compiler and one set of flags: common.mk runs this file
# (one make at a time on a folder, under a lock) before it links a step. Every object lands in
# DIR, a folder named for the flags:
#   DIR/libtk.a        the one-GPU harness every step links (the files at the top of common/)
#   DIR/libtk_ranks.a  the harness across GPUs (ranks/), which steps 8 to 10 link as well
# make -f harness.mk COMMON=... DIR=... NVCC=... HFLAGS='...' LIB=DIR/libtk.a (or libtk_ranks.a)
ONE_GPU := options.c matrix.c hostmem.c explain.c report.c cuda_check.c core.c harness.c flush.cu
RANKS   := $(notdir $(wildcard $(COMMON)/ranks/*.c $(COMMON)/ranks/*.cu))
HEADERS := $(wildcard $(COMMON)/*.h $(COMMON)/ranks/*.h)
obj      = $(addprefix $(DIR)/$(1),$(addsuffix .o,$(basename $(2))))

built: $(LIB)   # says nothing where LIB is up to date
	@:
.PHONY: built

$(DIR)/libtk.a: $(call obj,,$(ONE_GPU))
	$(NVCC) --lib -o $@ $^
$(DIR)/libtk_ranks.a: $(call obj,ranks/,$(RANKS))
	$(NVCC) --lib -o $@ $^

$(DIR)/%.o: $(COMMON)/%.c $(HEADERS) $(lastword $(MAKEFILE_LIST))
	@mkdir -p $(@D)
	$(NVCC) $(HFLAGS) -c $< -o $@
$(DIR)/%.o: $(COMMON)/%.cu $(HEADERS) $(lastword $(MAKEFILE_LIST))
	@mkdir -p $(@D)
	$(NVCC) $(HFLAGS) -c $< -o $@
