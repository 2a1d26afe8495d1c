# EEXIST inside one batch: creating the same object twice in a single transaction
nft "add table ip t; create table ip t"
nft "create table ip t; create table ip t"
nft "add table ip t; create chain ip t c; create chain ip t c"
nft "add table ip t; add set ip t s { type mark; }; create element ip t s { 1 }; create element ip t s { 1 }"
nft list ruleset
