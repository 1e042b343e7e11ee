# transpose-kit: build every step and its solution, run the solutions, test the kit.
#   make            build everything (SM=90 or SM="80 90" to pick GPU architectures)
#   make run        build, then run every solution step (ARGS="-n 4096" to change the size)
#   make results    the results table, CSV and chart of every solution step (ARGS="--compare F")
#   make test       the test suite: host-side tests always, GPU tests where a GPU is present
#   make large      every one-GPU solution at 46341^2 and 65536 x 65537, exact, each shape
#                   the GPU's memory holds (about 17 and 33 GiB; minutes)
#   make clean

include common/nccl.mk
# The steps, from the kit's table of steps (scripts/lib/steps.txt). Those across GPUs need NCCL:
# without it, they are left out.
STEPS     := $(addprefix step,$(shell scripts/lib/steps.sh))
ifneq ($(.SHELLSTATUS),0)
  $(error scripts/lib/steps.sh cannot read the table of steps: its message above says why)
endif
ACROSS    := $(addprefix step,$(shell scripts/lib/steps.sh --across))
ifneq ($(HAVE_NCCL),1)
  STEPS := $(filter-out $(ACROSS),$(STEPS))
endif
SOLUTIONS := $(addprefix solution/,$(STEPS))
DIRS      := $(STEPS) $(SOLUTIONS)

all: $(DIRS)
ifneq ($(HAVE_NCCL),1)
	@echo "note: $(ACROSS) left out of the build: they run across GPUs through NCCL 2.28 or newer, not found here (scripts/check-tools.sh says how to get it)"
endif

$(DIRS):
	$(MAKE) -C $@

run: $(SOLUTIONS)
	scripts/results/run-all.sh $(ARGS)

results: $(SOLUTIONS)
	scripts/results/results.sh $(ARGS)

test:
	tests/run.sh

large: $(SOLUTIONS)
	scripts/results/large.sh

clean:
	for d in $(DIRS); do $(MAKE) -C $$d clean; done
	$(MAKE) -C scripts/bench clean
	$(MAKE) -C scripts/library clean
	$(MAKE) -C scripts/baseline clean
	$(MAKE) -C scripts/bench/copy-modes clean
	rm -rf tests/build common/build

.PHONY: all run results test large clean $(DIRS)
