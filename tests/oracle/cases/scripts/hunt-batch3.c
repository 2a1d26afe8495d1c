flush chain ip t b
delete element ip t v { 1.1.1.1 }
delete chain ip t a
delete element ip t s { 10.0.0.0/8 }
add element ip t s { 10.0.0.0/16, 10.1.0.0/16 }
delete element ip t s { 10.1.0.0/16 }
add element ip t s { 10.1.0.0/16 }
