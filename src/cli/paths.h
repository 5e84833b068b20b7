/*
 * paths.h - where parlearn finds its course, catalogs and translations,
 * with no path of the build compiled in.
 *
 * Installed, they are under the directories configure was given:
 * $(pkgdatadir) (lessons/, flashcards/, labs/, data/, schema/) and
 * $(localedir). Run from its build tree (the tests, the README's
 * ./parlearn), the binary finds next to itself the file
 * PL_UNINSTALLED_MARK, which `make` writes there (never installs) with the
 * path of the source tree, relative to the build tree when configure had
 * it so: the course comes from that source tree and the translations from
 * the build tree's po/locale.
 */
#ifndef PARLEARN_CLI_PATHS_H
#define PARLEARN_CLI_PATHS_H

#include <stddef.h>

#define PL_UNINSTALLED_MARK	"parlearn-uninstalled"

/*
 * 1 when this process's executable sits in a build tree: srcdir gets the
 * source tree, builddir the executable's directory. 0 when installed.
 */
int	cli_build_tree(char *srcdir, size_t srcsize, char *builddir,
	    size_t buildsize);

/*
 * The GPU and model catalogs for the course in content_dir: its data/
 * when it has one, else fallback (the installed or build tree's data/).
 * Returns buf or fallback.
 */
const char	*cli_data_dir(const char *content_dir, const char *fallback,
		    char *buf, size_t size);

#endif
