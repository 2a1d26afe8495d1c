# verdict maps named and anonymous, with jump/goto targets, interval and concat keys
nft -c -f @FILE
nft -f @FILE
