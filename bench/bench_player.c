/*
 * bench_player.c - how fast and how cheaply the animation player draws.
 *
 * Part 1 (in process): the player screen draws pipeline parallelism into
 * a curses screen opened with newterm() on a pseudo-terminal, frame after
 * frame as fast as it can (step one event, draw, doupdate, drain the
 * pty), on 80x24 and 200x60. Reports frames per second and bytes per
 * frame; a step changes more cells than a 33 ms tick, so this is the
 * heavy case.
 *
 * Part 2 (the real binary): parlearn runs on a pty of each size, opens
 * the player from the home screen and plays pipeline parallelism, then
 * the heaviest run, 3d on 8 GPUs (about 2300 events); the bench reads
 * everything it writes and samples its CPU time from /proc. Reports
 * frames per second actually sent (bursts of output), bytes per second
 * and CPU percent while playing, and the same while paused. The goal:
 * 30 frames a second under 5% of a core.
 *
 * Usage: bench_player PATH-TO-PARLEARN. Not part of `make check`.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/term.h"
#include "tui/ui.h"

#define GAP_S	0.008	/* output quiet this long ends a frame, seconds */

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read what is waiting on fd; returns bytes read. */
static size_t
drain(int fd)
{
	char buf[65536];
	size_t total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += (size_t)n;
	return total;
}

static void
in_process(int cols, int rows)
{
	struct winsize ws = { (unsigned short)rows, (unsigned short)cols,
	    0, 0 };
	struct ui_screen *s;
	struct app app;
	SCREEN *scr;
	FILE *out;
	double t0, el;
	size_t bytes = 0;
	int master, slave, frames = 0;

	if (openpty(&master, &slave, NULL, NULL, &ws) != 0) {
		perror("openpty");
		return;
	}
	fcntl(master, F_SETFL, O_NONBLOCK);
	out = fdopen(slave, "w");
	scr = newterm("xterm-256color", out, stdin);
	if (scr == NULL) {
		fprintf(stderr, "bench_player: newterm failed\n");
		return;
	}
	resizeterm(rows, cols);
	ui_term.utf8 = 1;
	memset(&app, 0, sizeof app);
	s = ui_player_new(&app, NULL);
	s->key(s, ' ');
	drain(master);
	t0 = now_s();
	while ((el = now_s() - t0) < 2.0) {
		/* One event per frame: more changes than a 33 ms tick. */
		if (frames % 60 == 59)
			s->key(s, 'r');
		s->key(s, KEY_RIGHT);
		werase(stdscr);
		s->draw(s, stdscr, rows, cols);
		wnoutrefresh(stdscr);
		doupdate();
		fflush(out);
		bytes += drain(master);
		frames++;
	}
	printf("in-process %3dx%-3d  stepping: %6.0f frames/s  %5.0f bytes/frame\n",
	    cols, rows, frames / el, (double)bytes / frames);
	s->free(s);
	free(s);
	endwin();
	delscreen(scr);
	fclose(out);
	close(master);
}

/* CPU seconds (user + system) of pid so far. */
static double
cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *fp;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return 0.0;
	if (fgets(buf, sizeof buf, fp) != NULL && (p = strrchr(buf, ')')))
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
		    "%lu %lu", &ut, &st);
	fclose(fp);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Read fd for secs; count bytes and bursts (frames). */
static void
watch(int fd, double secs, size_t *bytes, int *bursts)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	double t0 = now_s(), last = 0.0, t;

	*bytes = 0;
	*bursts = 0;
	while ((t = now_s()) - t0 < secs) {
		if (poll(&pfd, 1, 5) <= 0)
			continue;
		if (t - last > GAP_S)
			(*bursts)++;
		last = t;
		*bytes += drain(fd);
	}
}

static void
settle(int fd, double secs)
{
	size_t b;
	int n;

	watch(fd, secs, &b, &n);
}

/* Measure paused then playing; name says which run. */
static void
measure(int master, pid_t pid, const char *name, int cols, int rows)
{
	double c0, c1;
	size_t bytes;
	int frames;

	c0 = cpu_s(pid);
	watch(master, 2.0, &bytes, &frames);
	c1 = cpu_s(pid);
	printf("parlearn   %3dx%-3d  %-3s paused:  %5.1f%% CPU  %7.0f bytes/s  "
	    "%4.1f frames/s\n", cols, rows, name, 100.0 * (c1 - c0) / 2.0,
	    bytes / 2.0, frames / 2.0);
	if (write(master, " ", 1) != 1)
		return;
	settle(master, 0.2);
	c0 = cpu_s(pid);
	watch(master, 3.0, &bytes, &frames);
	c1 = cpu_s(pid);
	printf("parlearn   %3dx%-3d  %-3s playing: %5.1f%% CPU  %7.0f bytes/s  "
	    "%4.1f frames/s\n", cols, rows, name, 100.0 * (c1 - c0) / 3.0,
	    bytes / 3.0, frames / 3.0);
	if (write(master, " ", 1) != 1)
		return;
	settle(master, 0.3);
}

static void
real_binary(const char *bin, int cols, int rows)
{
	struct winsize ws = { (unsigned short)rows, (unsigned short)cols,
	    0, 0 };
	const char *tmp = getenv("TMPDIR");
	char dir[4096], cmd[4200];
	int master;
	pid_t pid;

	snprintf(dir, sizeof dir, "%s/bench-player.XXXXXX",
	    tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
		return;
	pid = forkpty(&master, NULL, NULL, &ws);
	if (pid == 0) {
		setenv("HOME", dir, 1);
		setenv("XDG_DATA_HOME", dir, 1);
		setenv("TERM", "xterm-256color", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		execl(bin, bin, "--profile", "bench", (char *)NULL);
		_exit(127);
	}
	fcntl(master, F_SETFL, O_NONBLOCK);
	settle(master, 1.0);
	if (write(master, "G\r", 2) != 2)
		return;
	settle(master, 0.5);
	measure(master, pid, "pp", cols, rows);
	/* Tab twice: fsdp, then 3d on 8 GPUs. */
	if (write(master, "\t\t", 2) != 2)
		return;
	settle(master, 0.5);
	measure(master, pid, "3d", cols, rows);
	if (write(master, "qq", 2) != 2)
		kill(pid, SIGTERM);
	settle(master, 0.3);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(master);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_player: could not remove %s\n", dir);
}

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "C.UTF-8");
	if (argc != 2) {
		fprintf(stderr, "usage: bench_player PATH-TO-PARLEARN\n");
		return 1;
	}
	in_process(80, 24);
	in_process(200, 60);
	real_binary(argv[1], 80, 24);
	real_binary(argv[1], 200, 60);
	return 0;
}
