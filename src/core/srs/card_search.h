/*
 * card_search.h - the card browser's search: which cards a query finds.
 */
#ifndef PARLEARN_CORE_CARD_SEARCH_H
#define PARLEARN_CORE_CARD_SEARCH_H

/*
 * 1 if every word of query (words split at spaces) occurs in front, back
 * or deck, ignoring the case of ASCII letters; an empty query finds every
 * card. Any of front, back, deck may be NULL. "zero stage" finds a card
 * whose front says "ZeRO" and whose back says "stage 3".
 */
int	card_search_match(const char *query, const char *front,
	    const char *back, const char *deck);

#endif
