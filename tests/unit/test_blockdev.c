/* test_blockdev.c - the block devices' queue (blockdev_io(),
 * blockdev_io_wait(), sim/mm/swapfile.c) on a clock the test moves.
 *
 * A process batches its quantum, so a request may be issued ahead of the
 * engine's clock (the clock plus what the quantum has run up).  Such a
 * request must not leave the device idle until its issue time for the
 * requests the engine makes after it with earlier issue times: the queue
 * advances by the request's own transfer only.  The queue stays FIFO for
 * requests issued behind a backlog.  A process whose quantum ran more
 * than io_ahead_max ahead catches up with the clock (spends its kernel
 * time, sleeps its I/O waits) before it issues a request it waits for. */
#include "testlib.h"

#define LATENCY 100e-6
#define PAGE_T  1e-6                    /* seconds to transfer a page */
#define EPS     1e-9
#define fabs(x) ((x) < 0 ? -(x) : (x))

static double test_clock;

static double clock_fn(const struct pglist_data *pgdat)
{
	(void)pgdat;
	return test_clock;
}

/* the engine's resched: ns of the pending kernel time pass on the clock */
static void resched_fn(struct pglist_data *pgdat, struct mm_ctx *ctx, double ns)
{
	(void)pgdat;
	test_clock += ns * 1e-9;
	ctx->kernel_done_ns += ns;
}

static double slept;

static void sleep_fn(struct pglist_data *pgdat, double seconds)
{
	(void)pgdat;
	slept += seconds;
	test_clock += seconds;
}

/* the test's host: its clock, and for the catch-up its resched and sleep */
static const struct mm_host_ops test_host_clock = { .clock = clock_fn };
static const struct mm_host_ops test_host_catch_up = {
	.clock = clock_fn, .resched = resched_fn, .sleep = sleep_fn,
};

static struct machine *boot(struct blockdev *dev)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 8, &s);

	test_clock = 10;
	slept = 0;
	m->pgdat.host_ops = &test_host_clock;
	blockdev_setup(dev, LATENCY, PAGE_SIZE / PAGE_T);
	return m;
}

static void unhook(struct machine *m)
{
	m->pgdat.host_ops = NULL;
	m->pgdat.io_ahead_max = 0;
}

/* a process 1.5 s ahead of the clock (1.5 s of I/O wait run up in its
 * quantum) reads a page; then another, at the clock, reads one: it waits
 * for the first one's transfer at most, not until 1.5 s from now */
static void test_ahead_does_not_idle_the_queue(void **state)
{
	struct blockdev dev;
	struct machine *m = boot(&dev);
	struct pglist_data *pgdat = &m->pgdat;
	double first, second;
	(void)state;

	first = blockdev_io(pgdat, &dev, 1, false, 1.5);
	assert_true(fabs(first - (PAGE_T + LATENCY)) < EPS);        /* an idle device */
	second = blockdev_io(pgdat, &dev, 1, false, 0);
	assert_true(second <= 2 * PAGE_T + LATENCY + EPS);
	/* the queue ends where the two transfers put it, from the clock */
	assert_true(dev.busy_until <= test_clock + 2 * PAGE_T + EPS);
	assert_int_equal(dev.stats[0].requests, 2);
	assert_int_equal(dev.stats[0].long_waits, 0);
	assert_true(dev.stats[0].wait_max <= PAGE_T + EPS);
	assert_int_equal(dev.nr_far_ahead, 1);
	assert_int_equal(dev.reads, 2);
	unhook(m);
	tl_destroy(m);
}

/* a backlog of writes at the clock: a read issued at the clock or inside
 * the backlog waits for it (FIFO), one issued after it drains does not */
static void test_backlog_is_fifo(void **state)
{
	struct blockdev dev;
	struct machine *m = boot(&dev);
	struct pglist_data *pgdat = &m->pgdat;
	double r, drained;
	(void)state;

	r = blockdev_io(pgdat, &dev, 10000, true, 0);
	assert_true(fabs(r - (10000 * PAGE_T + LATENCY)) < EPS);
	drained = test_clock + 10000 * PAGE_T;
	/* at the clock: behind the 10,000 pages */
	r = blockdev_io(pgdat, &dev, 1, false, 0);
	assert_true(fabs(r - (10001 * PAGE_T + LATENCY)) < EPS);
	/* issued 4 ms on, inside the backlog: starts when it drains (the
	 * read before it included) */
	r = blockdev_io(pgdat, &dev, 1, false, 0.004);
	assert_true(fabs(test_clock + 0.004 + r - (drained + 2 * PAGE_T + LATENCY)) < EPS);
	/* issued after the backlog drained: no wait */
	r = blockdev_io(pgdat, &dev, 1, false, 0.5);
	assert_true(fabs(r - (PAGE_T + LATENCY)) < EPS);
	assert_int_equal(dev.stats[1].requests, 1);
	assert_int_equal(dev.stats[0].requests, 3);
	assert_true(fabs(dev.stats[0].wait_total - (10000 * PAGE_T + drained + PAGE_T - (test_clock + 0.004))) < EPS);
	unhook(m);
	tl_destroy(m);
}

/* blockdev_io_wait(): a process whose quantum ran 0.5 s of I/O wait and
 * 2 ms of kernel time ahead spends and sleeps them first, then issues
 * its read at the clock; within io_ahead_max it issues ahead without an
 * event; a daemon's context (no stalls) never catches up */
static void test_catch_up(void **state)
{
	struct blockdev dev;
	struct machine *m = boot(&dev);
	struct pglist_data *pgdat = &m->pgdat;
	struct mm_ctx ctx = { .stalls = true };
	(void)state;

	pgdat->host_ops = &test_host_catch_up;
	pgdat->io_ahead_max = 0.001;

	ctx.io_wait_ns = 0.5e9;
	ctx.kernel_ns = 2e6;
	blockdev_io_wait(pgdat, &ctx, &dev, 1, false);
	assert_true(fabs(test_clock - 10.502) < EPS);
	assert_true(fabs(slept - 0.5) < EPS);
	assert_true(ctx.kernel_done_ns == ctx.kernel_ns);
	assert_true(ctx.io_done_ns == 0.5e9);
	/* the read went to the device at the clock, and its wait is added */
	assert_int_equal(dev.nr_far_ahead, 0);
	assert_true(fabs(ctx.io_wait_ns - 0.5e9 - (PAGE_T + LATENCY) * 1e9) < 1);
	assert_int_equal(pgdat->sched_stats.io_catch_ups, 1);

	/* 0.5 ms ahead: issued ahead, nothing spent (the device is idle by
	 * then: no wait) */
	ctx = (struct mm_ctx){ .stalls = true, .io_wait_ns = 0.5e6 };
	blockdev_io_wait(pgdat, &ctx, &dev, 1, false);
	assert_true(fabs(test_clock - 10.502) < EPS);
	assert_true(ctx.io_done_ns == 0);
	assert_true(fabs(ctx.io_wait_ns - 0.5e6 - (PAGE_T + LATENCY) * 1e9) < 1);
	assert_int_equal(pgdat->sched_stats.io_catch_ups, 1);

	/* a daemon's context: issued ahead, never sleeps here */
	ctx = (struct mm_ctx){ .io_wait_ns = 0.5e9 };
	blockdev_io_wait(pgdat, &ctx, &dev, 1, false);
	assert_true(fabs(test_clock - 10.502) < EPS);
	assert_int_equal(dev.nr_far_ahead, 1);
	assert_int_equal(pgdat->sched_stats.io_catch_ups, 1);
	unhook(m);
	tl_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ahead_does_not_idle_the_queue, tl_teardown),
		cmocka_unit_test_teardown(test_backlog_is_fifo, tl_teardown),
		cmocka_unit_test_teardown(test_catch_up, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
