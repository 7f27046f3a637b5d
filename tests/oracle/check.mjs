process.stdin.resume(); let n=0; process.stdin.on("data",d=>{}); process.stdin.on("end",()=>{console.log("0 passed, 0 failed")})
