2 1
{S[i,j,k]: 0<=i<2^9223372036854775807 and 0<=j<4 and 0<=k<4}
{S[i,j,k]->A[i,k]}
{S[i,j,k]->B[k,j]}
{S[i,j,k]->C[i,j]}
